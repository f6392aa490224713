//! Generated types of Quire's gRPC APIs and Kafka events, from the `.proto` files beside
//! this crate. Hand-written code never goes here: change the `.proto` instead.
#![forbid(unsafe_code)]
#![allow(clippy::all, clippy::pedantic)]

pub mod auth {
    pub mod v1 {
        tonic::include_proto!("quire.auth.v1");
    }
}

pub mod catalog {
    pub mod v1 {
        tonic::include_proto!("quire.catalog.v1");
    }
}

pub mod chat {
    pub mod v1 {
        tonic::include_proto!("quire.chat.v1");
    }
}

pub mod manuscript {
    pub mod v1 {
        tonic::include_proto!("quire.manuscript.v1");
    }
}

pub mod wallet {
    pub mod v1 {
        tonic::include_proto!("quire.wallet.v1");
    }
}

pub mod ops {
    pub mod v1 {
        tonic::include_proto!("quire.ops.v1");
    }
}

pub mod events {
    pub mod v1 {
        tonic::include_proto!("quire.events.v1");
    }
}

/// Encoded `FileDescriptorSet` of every Quire proto, for gRPC reflection.
pub const FILE_DESCRIPTOR_SET: &[u8] = tonic::include_file_descriptor_set!("quire_descriptor");
