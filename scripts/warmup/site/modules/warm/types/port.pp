# A TCP port.
type Warm::Port = Integer[1, 65535]
