import Glibc

/// A loop-owned object carried through a closure that another thread (a device's, the
/// speech thread, an encoder's) posts back to the loop's mailbox: held weakly, so a
/// report arriving after its owner went changes nothing, and touched only on the loop
/// thread that made it (checked in debug builds), hence the unchecked Sendable. The one
/// such carrier of the kiosk.
final class LoopBound<Value: AnyObject>: @unchecked Sendable {
    private weak var object: Value?
    private let loopThread = pthread_self()

    init(_ object: Value? = nil) { self.object = object }

    var value: Value? {
        get {
            assert(pthread_equal(pthread_self(), loopThread) != 0, "\(Value.self) touched off the loop thread")
            return object
        }
        set {
            assert(pthread_equal(pthread_self(), loopThread) != 0, "\(Value.self) touched off the loop thread")
            object = newValue
        }
    }
}

/// Loop-only values that are not objects (a caller's callbacks) carried the same way,
/// held strongly until the posted work runs.
final class LoopCarried<Value>: @unchecked Sendable {
    private let carried: Value
    private let loopThread = pthread_self()

    init(_ value: Value) { carried = value }

    var value: Value {
        assert(pthread_equal(pthread_self(), loopThread) != 0, "\(Value.self) touched off the loop thread")
        return carried
    }
}
