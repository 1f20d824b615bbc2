import Dispatch
import Findings
import Foundation
import ReswatchProtocol
import RuleEngine
import SystemCalls

/// A watched root: its engine, its state, and the lock that keeps its engine jobs one at a time
/// and their deltas published in order.
struct WatchedRoot {
    let worker: EngineWorker
    /// Tells this root from a later one at the same path (removed and added again meanwhile).
    let token: UInt64
    /// One state, with the reason where there is one.
    enum Health: Equatable {
        case scanning, ready
        case degraded(reason: String)
    }

    var health = Health.scanning
    var lastChange: Date?
    var recrawls = 0
    /// The watch is established and the follow-up rescan has run, or the watch was in place
    /// before the first scan began (a root watched ahead: no follow-up is needed).
    var watchConfirmed = false
    var summary = EngineSummary()
    var diagnostics = DiagnosticStore()
    /// An engine job is running; others wait here in turn.
    var busy = false
    var waiting: [CheckedContinuation<Void, Never>] = []
    /// What engine jobs changed and nobody was told yet: a change applied while it settles
    /// (`Prepared`) is published when it has settled, merged with whatever runs after it.
    var unpublished: DiagnosticDelta?
    /// The change being applied while it settles, if any (DaemonCore+Settling.swift).
    var prepared: Prepared?

    /// A root's first change of a batch, applied on the engine thread while the batch settles,
    /// so that a batch of that one change is published as soon as it has settled.
    struct Prepared {
        /// The paths applied.
        let paths: Set<String>
        /// The engine job that applies them (its delta goes to `unpublished`).
        var job: Task<Void, Never>?
        /// The job has finished.
        var done = false
    }

    var state: RootStatus.State {
        switch health {
        case .scanning: .scanning
        case .ready: .ready
        case .degraded: .degraded
        }
    }

    var reason: String? {
        if case .degraded(let reason) = health { reason } else { nil }
    }

    /// Ready, or degraded for `reason` (the watcher's account of the root).
    mutating func watched(degradedBecause reason: String?) { health = reason.map { .degraded(reason: $0) } ?? .ready }
}
