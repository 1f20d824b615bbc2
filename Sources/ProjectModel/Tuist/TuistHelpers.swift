import SwiftSyntax

/// The manifest's own helper functions (issue 58, cause 9): Tuist projects often make their
/// targets with a function of the same file (`func appTarget(name: String) -> Target { .target(…) }`
/// or `static func app(…)` in an `extension Target`). A call to one is read as the target its
/// body returns, with each parameter bound to the call's argument (or its default value). Only a
/// body that returns one expression is read; anything else is said as not read.
extension TuistManifestReader {
    static let maximumHelperDepth = 4

    /// Top-level functions and `static func`s of `extension Target`, by name.
    static func functions(of source: SourceFileSyntax) -> [String: FunctionDeclSyntax] {
        var out: [String: FunctionDeclSyntax] = [:]
        for statement in source.statements {
            if let function = statement.item.as(FunctionDeclSyntax.self) {
                out[function.name.text] = function
            } else if let ext = statement.item.as(ExtensionDeclSyntax.self),
                ext.extendedType.trimmedDescription == "Target" || ext.extendedType.trimmedDescription == "ProjectDescription.Target"
            {
                for member in ext.memberBlock.members {
                    if let function = member.decl.as(FunctionDeclSyntax.self),
                        function.modifiers.contains(where: { $0.name.text == "static" })
                    {
                        out[function.name.text] = function
                    }
                }
            }
        }
        return out
    }

    /// The one expression a function's body returns (`return x` or a lone expression).
    static func returned(_ function: FunctionDeclSyntax) -> ExprSyntax? {
        guard let statements = function.body?.statements, statements.count == 1, let item = statements.first?.item else { return nil }
        if let r = item.as(ReturnStmtSyntax.self) { return r.expression }
        return item.as(ExprSyntax.self)
    }

    /// The function a call names: `helper(…)` or `.helper(…)` / `Target.helper(…)`.
    func helper(_ call: FunctionCallExprSyntax) -> FunctionDeclSyntax? {
        if let name = call.calledExpression.as(DeclReferenceExprSyntax.self)?.baseName.text { return functions[name] }
        if let name = member(call.calledExpression) { return functions[name] }
        return nil
    }

    /// Parameter name → the argument's expression (in the caller's scope), or the default.
    func parameterBindings(_ function: FunctionDeclSyntax, _ call: FunctionCallExprSyntax) -> [String: ExprSyntax]? {
        var out: [String: ExprSyntax] = [:]
        var arguments = Array(call.arguments)
        for parameter in function.signature.parameterClause.parameters {
            let label = parameter.firstName.text == "_" ? nil : parameter.firstName.text
            let local = (parameter.secondName ?? parameter.firstName).text
            if let i = arguments.firstIndex(where: { $0.label?.text == label }) {
                out[local] = resolve(arguments[i].expression)
                arguments.remove(at: i)
            } else if let value = parameter.defaultValue?.value {
                out[local] = resolve(value)
            } else {
                return nil
            }
        }
        return arguments.isEmpty ? out : nil
    }

    /// A target made by a helper of the manifest, or nil (then the caller says it was not read).
    mutating func helperTarget(_ call: FunctionCallExprSyntax) -> XcodeProject.Target? {
        guard helperDepth < Self.maximumHelperDepth, let function = helper(call), let body = Self.returned(function),
            let parameters = parameterBindings(function, call)
        else { return nil }
        var inner = self
        inner.helperDepth += 1
        inner.notes = []
        // Parameters shadow the manifest's constants of the same name.
        inner.bindings.merge(parameters) { _, parameter in parameter }
        // Parameters are looked up in the helper's scope, but their values are the caller's
        // expressions: a value that names another parameter is resolved before binding.
        let target: XcodeProject.Target?
        if let returned = inner.callExpression(body),
            inner.member(returned.calledExpression) == "target"
                || returned.calledExpression.as(DeclReferenceExprSyntax.self)?.baseName.text == "Target"
        {
            target = inner.target(returned)
        } else if let returned = inner.callExpression(body) {
            target = inner.helperTarget(returned)
        } else {
            target = nil
        }
        if target != nil { notes += inner.notes.map { "\($0) (in \(function.name.text)(…))" } }
        return target
    }

    /// A target the manifest makes in a way reswatch does not read: kept in the model under a
    /// name that says so, with no product type, so the project is never taken for one that
    /// builds no app and the target is said as not checked.
    static func unread(_ element: some SyntaxProtocol, line: Int) -> XcodeProject.Target {
        let name = "the target at line \(line)"
        return XcodeProject.Target(
            id: name, name: name, productType: "", configurations: [], defaultConfigurationName: nil,
            icons: IconBundleMembership(target: name))
    }
}
