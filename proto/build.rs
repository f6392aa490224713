//! Compiles every .proto under quire/ with protox (pure Rust), so no system protoc is
//! needed on a fresh machine.

use std::path::PathBuf;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    // Read when the script runs, not baked in when it is compiled: the compiled script is
    // shared by every clone that builds into the same target dir.
    let root = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR")?);
    let mut files = Vec::new();
    collect(&root.join("quire"), &mut files)?;
    files.sort();
    for f in &files {
        println!("cargo:rerun-if-changed={}", f.display());
    }
    let descriptors = protox::compile(&files, [&root])?;
    let out = PathBuf::from(std::env::var("OUT_DIR")?);
    // Reflection serves this set; compile_fds does not write it, so write it here.
    std::fs::write(
        out.join("quire_descriptor.bin"),
        prost::Message::encode_to_vec(&descriptors),
    )?;
    tonic_prost_build::configure().compile_fds(descriptors)?;
    Ok(())
}

fn collect(dir: &std::path::Path, out: &mut Vec<PathBuf>) -> std::io::Result<()> {
    for entry in std::fs::read_dir(dir)? {
        let path = entry?.path();
        if path.is_dir() {
            collect(&path, out)?;
        } else if path.extension().is_some_and(|e| e == "proto") {
            out.push(path);
        }
    }
    Ok(())
}
