internal import RestorationKit

/// The settings tab: the seed's "amazing" switch, set from the defaults when the view loads and saved
/// to them whenever it changes. The switch has no restoration identifier: the defaults, not the
/// archive, keep it.
final class SettingsViewController: ViewController {
    let defaults: Defaults
    let amazingSwitch = Switch()

    init(defaults: Defaults) {
        self.defaults = defaults
        super.init()
        title = "Settings"
        // The seed's viewDidLoad: the switch shows what the defaults hold.
        amazingSwitch.isOn = defaults.amazing
        view.addSubview(amazingSwitch)
    }

    /// The seed's `amazingAction`: the switch flipped; the defaults take the new value.
    func toggleAmazing() {
        amazingSwitch.isOn.toggle()
        defaults.amazing = amazingSwitch.isOn
    }
}
