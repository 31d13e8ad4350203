/// Orders file names as people do: `2.jpg` before `10.jpg`.
enum NaturalOrder {
    static func less(_ a: String, _ b: String) -> Bool {
        let x = Array(a.lowercased().unicodeScalars), y = Array(b.lowercased().unicodeScalars)
        var i = 0, j = 0
        while i < x.count && j < y.count {
            if isDigit(x[i]) && isDigit(y[j]) {
                var ei = i, ej = j
                while ei < x.count && isDigit(x[ei]) { ei += 1 }
                while ej < y.count && isDigit(y[ej]) { ej += 1 }
                let nx = String(String.UnicodeScalarView(x[i..<ei])).drop { $0 == "0" }
                let ny = String(String.UnicodeScalarView(y[j..<ej])).drop { $0 == "0" }
                if nx.count != ny.count { return nx.count < ny.count }
                if nx != ny { return nx < ny }
                i = ei
                j = ej
            } else {
                if x[i] != y[j] { return x[i].value < y[j].value }
                i += 1
                j += 1
            }
        }
        if x.count - i != y.count - j { return x.count - i < y.count - j }
        return a < b
    }

    private static func isDigit(_ s: Unicode.Scalar) -> Bool { s.value >= 48 && s.value <= 57 }
}
