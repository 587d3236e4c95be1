// CheckIn: placeholder until its first real file lands.
