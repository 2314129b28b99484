//! The teaching layer of chunkscope: material that serves the lessons rather
//! than the library.
//!
//! The library (`chunkscope`) splits text and says what it did. What a course
//! needs on top — engines written the wrong way on purpose, so a learner can
//! watch a property break — lives here, so the library's API carries none of it.

#![deny(missing_docs)]
#![forbid(unsafe_code)]

pub mod bugs;
pub mod documents;
pub mod listings;
