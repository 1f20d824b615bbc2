import Foundation

/// How `reswatch status` prints one state for a status bar: a named format or a template.
package enum BarFormat: Sendable, Equatable {
    /// waybar's custom module with `return-type: json`: `{text, tooltip, class, percentage}`.
    case waybar
    /// i3blocks' `format=json`: one block `{full_text, short_text, color, name, urgent}` a line.
    case i3blocks
    /// The i3bar protocol itself (a `status_command` of i3bar or swaybar): the header
    /// `{"version":1}`, then an endless JSON array with one array of blocks per state.
    case i3bar
    /// polybar's `custom/script`: text with `%{F#rrggbb}…%{F-}` colour tags.
    case polybar
    /// tmux's `status-right`: text with `#[fg=#rrggbb]…#[default]` styles.
    case tmux
    /// A template with named fields in braces: `{errors}E {warnings}W`.
    case template([TemplatePart])

    package enum TemplatePart: Sendable, Equatable {
        case literal(String)
        case field(Field)
    }

    package enum Field: String, Sendable, CaseIterable {
        case errors, warnings, infos, roots, files, generation, state, text, percentage
    }

    /// Why a format string is refused.
    package struct FormatError: Error, CustomStringConvertible, Sendable {
        package let description: String
    }

    /// A named format, or a template (anything with a `{`).
    package static func parse(_ s: String) throws(FormatError) -> BarFormat {
        switch s {
        case "waybar": return .waybar
        case "i3bar": return .i3bar
        case "i3blocks": return .i3blocks
        case "polybar": return .polybar
        case "tmux": return .tmux
        default: break
        }
        guard s.contains("{") else {
            throw FormatError(
                description:
                    "unknown format '\(s)': use text, json, waybar, i3bar, i3blocks, polybar, tmux, or a template such as '{errors}E {warnings}W' (fields: \(Field.allCases.map(\.rawValue).joined(separator: ", ")))"
            )
        }
        return .template(try parseTemplate(s))
    }

    /// `{{` and `}}` stand for literal braces.
    static func parseTemplate(_ s: String) throws(FormatError) -> [TemplatePart] {
        var parts: [TemplatePart] = []
        var literal = ""
        var chars = Array(s)[...]
        while let c = chars.popFirst() {
            if c == "{", chars.first == "{" {
                chars.removeFirst()
                literal.append("{")
            } else if c == "}", chars.first == "}" {
                chars.removeFirst()
                literal.append("}")
            } else if c == "{" {
                guard let close = chars.firstIndex(of: "}") else {
                    throw FormatError(description: "unclosed '{' in the format '\(s)' (write '{{' for a brace)")
                }
                let name = String(chars[..<close])
                guard let field = Field(rawValue: name) else {
                    throw FormatError(
                        description:
                            "unknown field '{\(name)}' in the format '\(s)' (fields: \(Field.allCases.map(\.rawValue).joined(separator: ", ")))"
                    )
                }
                chars = chars[chars.index(after: close)...]
                if !literal.isEmpty { parts.append(.literal(literal)) }
                literal = ""
                parts.append(.field(field))
            } else if c == "}" {
                throw FormatError(description: "a '}' without its '{' in the format '\(s)' (write '}}' for a brace)")
            } else {
                literal.append(c)
            }
        }
        if !literal.isEmpty { parts.append(.literal(literal)) }
        return parts
    }

    /// Lines printed once before the first state: the i3bar protocol's header and the opening of
    /// its endless array.
    package var preamble: [String] { self == .i3bar ? ["{\"version\":1}", "["] : [] }

    /// One line (without its newline) for the state; `first`: the first after the preamble (the
    /// i3bar protocol separates the later ones with a comma).
    package func line(_ state: BarState, first: Bool = true) -> String {
        switch self {
        case .waybar:
            return Self.json([
                "text": state.text, "tooltip": state.tooltip, "class": state.level.rawValue, "percentage": state.percentage,
            ])
        case .i3blocks:
            return Self.block(state)
        case .i3bar:
            return (first ? "" : ",") + "[" + Self.block(state) + "]"
        case .polybar:
            // polybar reads "%{" as a tag: a literal "%" is "%%" nowhere in our text, which has none.
            return "%{F\(state.color)}\(state.text)%{F-}"
        case .tmux:
            // tmux expands "#" in #() output: the text holds none.
            return "#[fg=\(state.color)]\(state.text)#[default]"
        case .template(let parts):
            return parts.map { part in
                switch part {
                case .literal(let s): s
                case .field(let f): Self.value(f, state)
                }
            }.joined()
        }
    }

    /// One i3bar protocol block.
    static func block(_ state: BarState) -> String {
        json([
            "name": "reswatch", "full_text": "reswatch \(state.text)", "short_text": state.text, "color": state.color,
            "urgent": state.level == .error,
        ])
    }

    static func value(_ field: Field, _ s: BarState) -> String {
        switch field {
        case .errors: String(s.errors)
        case .warnings: String(s.warnings)
        case .infos: String(s.infos)
        case .roots: String(s.roots)
        case .files: String(s.files)
        case .generation: String(s.generation)
        case .state: s.level.rawValue
        case .text: s.text
        case .percentage: String(s.percentage)
        }
    }

    static func json(_ object: [String: Any]) -> String {
        let data =
            (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data("{}".utf8)
        return String(decoding: data, as: UTF8.self)
    }
}
