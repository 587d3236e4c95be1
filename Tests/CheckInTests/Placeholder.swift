// CheckInTests: placeholder.
