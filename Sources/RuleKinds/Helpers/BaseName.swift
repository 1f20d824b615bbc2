/// A file name without its last extension ("Launch.storyboard" → "Launch").
enum BaseName {
    static func of(_ file: String) -> String {
        guard let dot = file.lastIndex(of: ".") else { return file }
        return String(file[..<dot])
    }
}
