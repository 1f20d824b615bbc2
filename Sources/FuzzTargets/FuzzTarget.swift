import ImageFacts
import LanguageServer
import NIOCore
import NIOEmbedded
import ProjectModel
import ReswatchProtocol
import RuleEngine
import RuleKinds
import SocketServer
import SystemCalls

/// What a fuzz input came to: read, or turned down with the reason a user would see. Either is
/// fine; a trap, a hang or runaway memory is the bug a fuzzer looks for.
package enum FuzzOutcome: Sendable, Equatable {
    case accepted
    case rejected(String)
}

/// Each reader of hostile input, fed bytes the way reswatch gets them from a watched tree or a
/// socket client. `make fuzz` runs each under libFuzzer; the seed and regression inputs in
/// Tests/FuzzTargetsTests/Corpus run as tests.
package enum FuzzTarget: String, CaseIterable, Sendable {
    /// PNG header facts, then the pixel decode (libpng through the C shim).
    case png
    /// JPEG pixel decode (libjpeg-turbo through the C shim), for the re-encoding repair.
    case jpeg
    /// Info.plist and other plists: XML, binary, OpenStep.
    case plist
    /// `project.pbxproj`, its model, its targets and their build settings.
    case pbxproj
    /// An asset catalog's `Contents.json`.
    case contents
    /// `.reswatch.yaml`.
    case yaml
    /// XcodeGen's `project.yml`.
    case xcodegen
    /// A rule module.
    case rules
    /// Socket bytes: the line framer, JSON-RPC request parsing and typed params.
    case rpc
    /// The whole `check` path: the first byte picks which file of a small app the rest becomes
    /// (`CheckTree.files`), then the shipped rules run over the tree.
    case check
    /// `reswatch lsp`'s input: Content-Length framing, the messages, their URIs, and the
    /// Contents.json scanner of the quick fixes.
    case lsp

    package func run(_ data: [UInt8]) -> FuzzOutcome {
        switch self {
        case .png: Self.png(data)
        case .jpeg: Self.jpeg(data)
        case .plist: Self.plist(data)
        case .pbxproj: Self.pbxproj(data)
        case .contents: Self.contents(data)
        case .yaml: Self.yaml(data)
        case .xcodegen: Self.xcodegen(data)
        case .rules: Self.rules(data)
        case .rpc: Self.rpc(data)
        case .check: CheckTree.shared.run(data)
        case .lsp: LanguageServerFuzz.exercise(data).map { .rejected($0) } ?? .accepted
        }
    }

    static func png(_ data: [UInt8]) -> FuzzOutcome {
        let key = FileKey(device: 0, inode: 0, size: Int64(data.count), modifiedNanoseconds: 0)
        let facts = PNGReader.inspect(bytes: data, key: key)
        if let damage = facts.damage { return .rejected(damage) }
        guard facts.kind == .png else { return .rejected("not a PNG: \(facts.kind)") }
        let pixels = PNGReader.decode(bytes: data, key: key)
        return (pixels.damage ?? pixels.notDecoded).map { .rejected($0) } ?? .accepted
    }

    static func jpeg(_ data: [UInt8]) -> FuzzOutcome {
        switch RGBAImage.decodeJPEG(data) {
        case .success: .accepted
        case .failure(let failure): .rejected(failure.description)
        }
    }

    static func plist(_ data: [UInt8]) -> FuzzOutcome {
        switch PropertyListReader.parse(data) {
        case .success: .accepted
        case .failure(let e): .rejected(e.description)
        }
    }

    static func pbxproj(_ data: [UInt8]) -> FuzzOutcome {
        let files = InMemoryFiles(["App.xcodeproj/project.pbxproj": data])
        switch XcodeProjectReader.read("App.xcodeproj", files: files) {
        case .failure(let e): return .rejected(e.description)
        case .success(let project):
            _ = TargetResolver.resolve(project, files: files)
            _ = PBXProjectReader.settings(project, files: files)
            return .accepted
        }
    }

    static func contents(_ data: [UInt8]) -> FuzzOutcome {
        switch AssetContentsReader.parse(data) {
        case .success: .accepted
        case .failure(let e): .rejected(e.description)
        }
    }

    static func yaml(_ data: [UInt8]) -> FuzzOutcome {
        let (_, problems) = ProjectConfigReader.parse(String(decoding: data, as: UTF8.self))
        return problems.first.map { .rejected($0.message) } ?? .accepted
    }

    static func xcodegen(_ data: [UInt8]) -> FuzzOutcome {
        let files = InMemoryFiles(["project.yml": data])
        switch XcodeGenReader.read("project.yml", files: files) {
        case .failure(let p): return .rejected(p.message)
        case .success(let (project, problems)):
            _ = TargetResolver.resolve(project, files: files)
            return problems.first.map { .rejected($0.message) } ?? .accepted
        }
    }

    static func rules(_ data: [UInt8]) -> FuzzOutcome {
        let set = RuleModuleLoader.parse(String(decoding: data, as: UTF8.self), file: "fuzz.yaml", registry: BuiltinKinds.registry)
        return set.errors.first.map { .rejected($0.message) } ?? .accepted
    }

    /// Keys the methods take, read through the same typed accessors the handlers use.
    static let paramKeys: Set<String> = ["path", "root", "timeout_ms", "min_severity"]

    static func readParams<R: ReswatchRequest>(_ type: R.Type, _ raw: JSONValue?) throws(RPCError) -> R.Params {
        try ParamReader.read(R.Params.self, from: raw)
    }

    static func rpc(_ data: [UInt8]) -> FuzzOutcome {
        let channel = EmbeddedChannel(handler: ByteToMessageHandler(LineFrameDecoder(limit: 4096)))
        defer { _ = try? channel.finish() }
        var outcome = FuzzOutcome.accepted
        do {
            try channel.writeInbound(channel.allocator.buffer(bytes: data))
            channel.pipeline.fireChannelInactive()
            while let frame = try channel.readInbound(as: Frame.self) {
                guard case .line(let line) = frame else {
                    outcome = .rejected("line too long")
                    continue
                }
                switch RPCRequest.parse(line) {
                case .failure(let e):
                    _ = RPCEncoder.error(id: RPCRequest.bestEffortID(line), e)
                    outcome = .rejected(e.message)
                case .success(let request):
                    do throws(RPCError) {
                        // Every request's typed params, as the server reads them.
                        for type in ReswatchRequests.all where type.method == request.method {
                            _ = try Self.readParams(type, request.params)
                        }
                        let params = try ParamReader(request.params, allowed: paramKeys)
                        _ = try params.string("path")
                        _ = try params.int("timeout_ms", range: 1...600_000)
                        _ = try params.severity("min_severity")
                        _ = RPCEncoder.response(id: request.id ?? .null, result: ["ok": true])
                    } catch {
                        outcome = .rejected(error.message)
                    }
                }
            }
        } catch {
            outcome = .rejected("\(error)")
        }
        return outcome
    }
}
