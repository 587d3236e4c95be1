// SystemdTests: placeholder.
