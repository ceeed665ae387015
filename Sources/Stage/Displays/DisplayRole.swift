/// Which side of the rig a display faces: the operator (inner) or the talent (outer).
package enum DisplayRole: String, CaseIterable, Sendable, CustomStringConvertible {
    case inner, outer
    package var description: String { rawValue }
}
