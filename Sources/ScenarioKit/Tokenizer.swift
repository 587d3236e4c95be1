/// Splits a scenario line into words: blanks separate, double quotes group, `\"` and `\\` escape,
/// an unquoted `#` starts a comment.
enum Tokenizer {
    static func words(_ line: String) throws(LineError) -> [String] {
        var words: [String] = []
        var current = ""
        var inWord = false
        var quoted = false
        var escaped = false
        for character in line {
            if escaped {
                current.append(character)
                escaped = false
            } else if quoted {
                switch character {
                case "\\": escaped = true
                case "\"": quoted = false
                default: current.append(character)
                }
            } else {
                switch character {
                case " ", "\t":
                    if inWord { words.append(current); current = ""; inWord = false }
                case "\"":
                    quoted = true; inWord = true
                case "#":
                    if inWord { current.append(character) } else { return words }
                default:
                    current.append(character); inWord = true
                }
            }
        }
        if quoted { throw LineError(message: "a double quote is not closed") }
        if inWord { words.append(current) }
        return words
    }
}
