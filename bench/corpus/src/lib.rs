//! Empty: this package only pins the crates whose sources form the code corpus.
