// RestorationKitTests: placeholder.
