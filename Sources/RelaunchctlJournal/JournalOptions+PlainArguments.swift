extension JournalOptions {
    /// Reads the arguments after `journal` without ArgumentParser, when they are plain: each one an
    /// option of ours as `--name value` or `--name=value`, and the options valid (``problem`` is nil).
    ///
    /// ArgumentParser's start-up (reflection over the commands, conformance scans of the whole
    /// binary) costs more than reading a small journal, so `relaunchctl` tries this first. Anything
    /// else gives nil and is left to ``JournalCommand``, which reads it or prints the error or help:
    /// this reader never prints. Where it reads, it reads as ArgumentParser 1.8 does (RelaunchctlTests
    /// compares the two): the split at the first `=`, the last of a repeated option wins (`--file` and
    /// `--host` collect every one), `--since` takes the next argument even when it starts with a dash,
    /// the other options only one that does not.
    package init?(plainArguments arguments: [String]) {
        self.init()
        var rest = arguments.makeIterator()
        while let argument = rest.next() {
            // A value out of place, a short or single-dash option, `--` and `---…` are ArgumentParser's.
            guard argument.hasPrefix("--") else { return nil }
            let body = argument.dropFirst(2)
            let equals = body.firstIndex(of: "=")
            let name = String(body[..<(equals ?? body.endIndex)])
            let attached = equals.map { String(body[body.index(after: $0)...]) }
            // ArgumentParser reads `--name=` as `--name` and then looks for a value after it.
            if attached?.isEmpty == true { return nil }

            /// The option's value: the attached one, or the next argument if ArgumentParser takes it too.
            func value(next taken: (String) -> Bool) -> String? {
                if let attached { return attached }
                guard let next = rest.next(), taken(next) else { return nil }
                return next
            }
            switch name {
            case Name.json where attached == nil:
                json = true
            case Name.since:
                // Parsed `.unconditional`: any argument that ArgumentParser's split accepts (it refuses
                // `--`, three dashes and `-=…` before any option sees them).
                guard let value = value(next: { !$0.hasPrefix("--") && !$0.hasPrefix("-=") }) else { return nil }
                since = value
            case Name.directory:
                // Parsed `.next`: only an argument that does not start with a dash.
                guard let value = value(next: { !$0.hasPrefix("-") }) else { return nil }
                directory = value
            case Name.app:
                guard let value = value(next: { !$0.hasPrefix("-") }) else { return nil }
                app = value
            case Name.merge where attached == nil:
                merge = true
            case Name.file:
                // Parsed `.upToNextOption`: values that follow are ArgumentParser's to read (nil below).
                guard let value = value(next: { !$0.hasPrefix("-") }) else { return nil }
                files.append(value)
            case Name.host:
                guard let value = value(next: { !$0.hasPrefix("-") }) else { return nil }
                hosts.append(value)
            case Name.report:
                guard let value = value(next: { !$0.hasPrefix("-") }) else { return nil }
                report = value
            default:
                return nil
            }
        }
        guard problem == nil else { return nil }
    }
}
