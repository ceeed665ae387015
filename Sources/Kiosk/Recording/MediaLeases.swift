/// Files in use: a clip being exported (or, later, replayed) holds a lease on its
/// media, and nothing deletes a leased file, neither retention nor a delete request.
/// Loop-owned; a lease is taken on the loop and given back there when the work ends.
struct MediaLeases: Equatable {
    struct Lease: Hashable {
        fileprivate let id: Int
        let path: String
        let purpose: String
    }

    private var active: Set<Lease> = []
    private var next = 0

    mutating func acquire(_ path: String, for purpose: String) -> Lease {
        next += 1
        let lease = Lease(id: next, path: path, purpose: purpose)
        active.insert(lease)
        return lease
    }

    mutating func release(_ lease: Lease) { active.remove(lease) }

    func isLeased(_ path: String) -> Bool { active.contains { $0.path == path } }

    /// What holds `path`, for the refusal message ("export", "replay").
    func purposes(of path: String) -> [String] { active.filter { $0.path == path }.map(\.purpose).sorted() }

    var count: Int { active.count }
}
