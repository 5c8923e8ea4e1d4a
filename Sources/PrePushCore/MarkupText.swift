/// Text for XML and HTML documents.
public enum MarkupText {
    /// XML-escapes text; characters XML 1.0 cannot hold are written as Swift writes them
    /// (`\u{1}`), so names that differ only by such a character stay apart. In attributes, line
    /// breaks and tabs become character references so they survive attribute normalisation.
    public static func escape(_ text: String, attribute: Bool = true) -> String {
        // Most names and times hold nothing to escape: one byte scan, and the string is kept as it is.
        var clean = true
        for byte in text.utf8 where byte < 0x20 || byte == UInt8(ascii: "&") || byte == UInt8(ascii: "<") || byte == UInt8(ascii: ">")
            || byte == UInt8(ascii: "\"") || byte == 0xEF {
            clean = false
            break
        }
        if clean { return text }
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"" where attribute: out += "&quot;"
            case "\n" where attribute: out += "&#10;"
            case "\r": out += "&#13;"
            case "\t" where attribute: out += "&#9;"
            case "\n", "\t": out.unicodeScalars.append(scalar)
            default:
                let value = scalar.value
                if value < 0x20 || value == 0xFFFE || value == 0xFFFF {
                    out += "\\u{" + String(value, radix: 16) + "}"
                    continue
                }
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
