import RelaunchContract
import Testing

@Suite("polkit's rule for permissiond's kills")
struct PolkitKillRuleTests {
    @Test("the units of every registered app, a registration's over a permissiond.conf section's, each once")
    func units() {
        let registry = AppRegistry([
            AppRegistration(app: "a", unit: "a.service"),
            AppRegistration(app: "b", unit: "shared.service"),
            AppRegistration(app: "c", unit: "shared.service"),
        ])
        let configuration = PermissionConfiguration(
            units: ["a": "not-a.service", "d": "d.service"], registry: registry)
        #expect(PolkitKillRule.units(of: configuration) == ["a.service", "d.service", "shared.service"])
        #expect(PolkitKillRule.units(of: .builtIn).isEmpty)
    }

    @Test("unit names are plain where they are plain, escaped everywhere else", arguments: [
        ("checkin-demo.service", #""checkin-demo.service""#),
        ("a_b:c@1.scope", #""a_b:c@1.scope""#),
        // systemd's escape: a backslash stays one, never a JavaScript escape of '-'.
        (#"zz\x2dkill.service"#, #""zz\u005cx2dkill.service""#),
        (#"a.service"]; polkit.addRule(x); //"#,
         #""a.service\u0022\u005d\u003b\u0020polkit.addRule\u0028x\u0029\u003b\u0020\u002f\u002f""#),
        ("a\nb\u{2028}c", #""a\u000ab\u2028c""#),
        ("é😀", #""\u00e9\ud83d\ude00""#),
    ])
    func escaping(raw: String, literal: String) {
        #expect(PolkitKillRule.javaScriptString(raw) == literal)
    }

    @Test("the rule answers only manage-units for permissiond's user, the verbs kill and reset-failed")
    func text() {
        let text = PolkitKillRule.text(units: ["a.service", #"b"c.service"#])
        #expect(text.contains(#"action.id != "org.freedesktop.systemd1.manage-units" || subject.user != "relaunch-permissiond""#))
        #expect(text.contains(#"if (verb != "kill" && verb != "reset-failed")"#))
        #expect(text.contains("        \"a.service\",\n        \"b\\u0022c.service\"\n    ];"))
        #expect(!text.contains("spawn"))
        // Whatever the units, every character of the file is printable ASCII or a line break.
        #expect(text.unicodeScalars.allSatisfy { $0 == "\n" || (0x20..<0x7F).contains($0.value) })
    }

    @Test("no unit: the rule refuses every unit")
    func empty() {
        let text = PolkitKillRule.text(units: [])
        #expect(text.contains("var units = [\n\n    ];"))
        #expect(text.contains("polkit.Result.NO"))
    }
}
