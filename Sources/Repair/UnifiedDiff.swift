/// `diff -u` of two texts, for the plan `reswatch fix` prints: what a repair changes, line by line,
/// with three lines of context.
package enum UnifiedDiff {
    package static func lines(old: [UInt8], new: [UInt8], path: String, context: Int = 3) -> [String] {
        let a = split(old)
        let b = split(new)
        let difference = b.difference(from: a)
        // Which old lines are removed and which new lines are inserted.
        var removed = Set<Int>()
        var inserted = Set<Int>()
        for change in difference {
            switch change {
            case .remove(let offset, _, _): removed.insert(offset)
            case .insert(let offset, _, _): inserted.insert(offset)
            }
        }
        // Walk both: (old index, new index, kind) for every line of the merged listing.
        var ops: [(Int, Int, Character)] = []
        var i = 0
        var j = 0
        while i < a.count || j < b.count {
            if i < a.count, removed.contains(i) {
                ops.append((i, j, "-"))
                i += 1
            } else if j < b.count, inserted.contains(j) {
                ops.append((i, j, "+"))
                j += 1
            } else {
                ops.append((i, j, " "))
                i += 1
                j += 1
            }
        }
        var out = ["--- a/\(path)", "+++ b/\(path)"]
        var k = 0
        while k < ops.count {
            guard ops[k].2 != " " else {
                k += 1
                continue
            }
            // A hunk: from `context` lines before the first change to `context` after the last of
            // changes no more than 2 × context apart.
            var start = max(0, k - context)
            while start < k, ops[start].2 != " " { start += 1 }
            var end = k
            var lastChange = k
            while end < ops.count, end - lastChange <= 2 * context {
                if ops[end].2 != " " { lastChange = end }
                end += 1
            }
            end = min(ops.count, lastChange + context + 1)
            let slice = ops[start..<end]
            let oldCount = slice.filter { $0.2 != "+" }.count
            let newCount = slice.filter { $0.2 != "-" }.count
            let oldStart = (slice.first { $0.2 != "+" }?.0 ?? ops[start].0) + (oldCount == 0 ? 0 : 1)
            let newStart = (slice.first { $0.2 != "-" }?.1 ?? ops[start].1) + (newCount == 0 ? 0 : 1)
            out.append("@@ -\(oldStart),\(oldCount) +\(newStart),\(newCount) @@")
            for (oi, nj, kind) in slice { out.append(String(kind) + (kind == "+" ? b[nj] : a[oi])) }
            k = end
        }
        return out
    }

    static func split(_ bytes: [UInt8]) -> [String] {
        var lines = String(decoding: bytes, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if lines.last == "" { lines.removeLast() }
        return lines
    }
}
