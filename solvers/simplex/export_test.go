package simplex

// ReadMPS exposes the tests' MPS reader to the external test package.
var ReadMPS = readMPS
