// Its own file: tests/fuzz/targets/archive-dump.swift compiles it with ArchiveText.swift.
import RelaunchContract

/// `text` as a JSON string literal (``JSONText``: the escapes of every Relaunch program's JSON;
/// restoration paths keep their `/` readable).
func jsonString(_ text: String) -> String {
    JSONText.quoted(text, escapingSlashes: false)
}
