package agt

// Version is the version of the agt tools.
var Version = "0.1.0"
