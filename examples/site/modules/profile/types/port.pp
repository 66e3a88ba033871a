# A TCP port number.
type Profile::Port = Integer[1, 65535]
