import Testing

@testable import Daemon

/// The roots' bookkeeping alone (`RootBook`, with plain strings for records): which paths may
/// become roots, configured roots waiting for their turn, tokens, and the lists `status` and
/// `watch/list` answer with.
@Suite struct RootBookTests {
    @Test func aPathInsideOrAroundAWatchedRootIsRefusedByName() {
        var book = RootBook<String>()
        book.add("/srv/app", "app")
        #expect(book.admission(of: "/srv/app") == .watchedAlready)
        #expect(book.admission(of: "/srv/app/Assets.xcassets") == .overlaps("/srv/app"))
        #expect(book.admission(of: "/srv") == .overlaps("/srv/app"))
        #expect(book.admission(of: "/srv/app2") == .admitted, "whole path segments: /srv/app2 is not in /srv/app")
        #expect(book.admission(of: "/") == .overlaps("/srv/app"))
    }

    @Test func theRootFolderHoldsEveryPathAndNoPrefixTrickFoolsIt() {
        var book = RootBook<String>()
        book.add("/", "all")
        #expect(book.admission(of: "/anything") == .overlaps("/"))
        #expect(RootBook<String>.within("/a/b", "/a") && !RootBook<String>.within("/ab", "/a") && RootBook<String>.within("/a", "/"))
    }

    @Test func configuredRootsWaitAreListedAndAPathInsideOneAddsIt() {
        var book = RootBook<String>(configured: ["/b", "/a"])
        #expect(book.paths == ["/a", "/b"], "a starting daemon lists the roots it was told to watch")
        #expect(book.waiting == ["/b", "/a"])
        #expect(book.admission(of: "/a/App") == .inConfigured("/a"), "the configured root is added, not the path inside it")
        #expect(book.admission(of: "/a") == .admitted)
        book.add("/a", "a")
        #expect(book.waiting == ["/b"] && book.configured == ["/b"])
        #expect(book.isRootOrWaiting("/a") && book.isRootOrWaiting("/b") && !book.isRootOrWaiting("/c"))
        let dropped = book.dropConfigured("/b")
        let again = book.dropConfigured("/b")
        let watched = book.dropConfigured("/a")
        #expect(dropped)
        #expect(!again, "already dropped")
        #expect(!watched, "a watched root is removed, not dropped")
        #expect(book.paths == ["/a"])
    }

    @Test func startFinishingLeavesNoRootWaiting() {
        var book = RootBook<String>(configured: ["/x", "/y"])
        book.add("/x", "x")
        book.startFinished()
        #expect(book.waiting.isEmpty && book.paths == ["/x"])
    }

    @Test func tokensNeverRepeatAcrossRemovalAndReAdding() {
        var book = RootBook<UInt64>()
        let first = book.nextToken()
        book.add("/r", first)
        let removed = book.removeValue(forKey: "/r")
        let twice = book.removeValue(forKey: "/r")
        #expect(removed == first && twice == nil)
        let second = book.nextToken()
        book.add("/r", second)
        #expect(second != first && book["/r"] == second, "a job of the old root can tell the new one is not its")
        book["/r"]? += 100
        #expect(book["/r"] == second + 100 && book.count == 1 && Array(book.values) == [second + 100])
    }
}
