//! Many small blocks held in one buffer (a packed table's records, `catalog::held`; the firearms'
//! forms, `read::forms`): 300,000 boxes at 100,000 firearms cost a pointer and an allocator's
//! rounding each.
//!
//! The buffer is shared: a patched snapshot holds its predecessor's buffer and, beside it, only
//! the blocks it replaced (`replaced`). Copying the 20 MB of packed firearms and the 50 MB of
//! forms into fresh buffers was most of a one-record patch at 100,000 firearms, and its slowest
//! part when the kernel had to clear the pages first. A patch that moves records (a creation or a
//! deletion shifts every later position) writes a new buffer, as does one whose replaced blocks
//! would pass a sixteenth of all, so the blocks held twice stay few.

use std::collections::BTreeMap;
use std::sync::Arc;

/// Blocks by index (the module's doc).
#[derive(Clone, Default, serde::Serialize, serde::Deserialize)]
pub struct Blocks {
    buffer: Arc<Buffer>,
    /// Blocks replaced since the buffer was written, by index.
    replaced: BTreeMap<u32, serde_bytes::ByteBuf>,
}

/// Every block, one after the other, and where each ends.
#[derive(Default, serde::Serialize, serde::Deserialize)]
struct Buffer {
    #[serde(with = "super::chunked")]
    bytes: Vec<u8>,
    ends: Vec<u32>,
}

impl Buffer {
    fn block(&self, index: usize) -> &[u8] {
        let start = if index == 0 { 0 } else { self.ends[index - 1] as usize };
        &self.bytes[start..self.ends[index] as usize]
    }
}

/// A fresh buffer's blocks, added in index order.
pub struct Writer(Buffer);

impl Writer {
    /// For about `bytes` bytes in `blocks` blocks.
    pub fn with_capacity(bytes: usize, blocks: usize) -> Self {
        Self(Buffer { bytes: Vec::with_capacity(bytes), ends: Vec::with_capacity(blocks) })
    }

    pub fn push(&mut self, block: &[u8]) {
        let buffer = &mut self.0;
        buffer.bytes.extend_from_slice(block);
        buffer.ends.push(u32::try_from(buffer.bytes.len()).expect("a block buffer stays under 4 GiB"));
    }

    pub fn finish(mut self) -> Blocks {
        self.0.bytes.shrink_to_fit();
        Blocks { buffer: Arc::new(self.0), replaced: BTreeMap::new() }
    }
}

impl Blocks {
    pub fn len(&self) -> usize {
        self.buffer.ends.len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Block `index`. Panics past the end, as indexing does.
    pub fn get(&self, index: usize) -> &[u8] {
        match self.replaced.get(&(index as u32)) {
            Some(block) => block,
            None => self.buffer.block(index),
        }
    }

    /// Bytes of the buffer and of the replaced blocks.
    pub fn bytes_held(&self) -> usize {
        self.buffer.bytes.len() + self.replaced.values().map(|block| block.len()).sum::<usize>()
    }

    /// These blocks with `replacements` (index, block) in place of theirs: the buffer shared
    /// and the replaced blocks beside it, or one new buffer when they would pass a sixteenth.
    pub fn replaced(&self, replacements: impl IntoIterator<Item = (usize, Vec<u8>)>) -> Self {
        let mut replaced = self.replaced.clone();
        for (index, block) in replacements {
            assert!(index < self.len(), "a replaced block is one of the blocks");
            replaced.insert(index as u32, serde_bytes::ByteBuf::from(block));
        }
        let blocks = Self { buffer: self.buffer.clone(), replaced };
        if blocks.replaced.len() <= blocks.len() / 16 {
            return blocks;
        }
        let mut writer = Writer::with_capacity(blocks.bytes_held(), blocks.len());
        for index in 0..blocks.len() {
            writer.push(blocks.get(index));
        }
        writer.finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn numbered(count: usize) -> Blocks {
        let mut writer = Writer::with_capacity(0, count);
        for i in 0..count {
            writer.push(format!("block {i}").as_bytes());
        }
        writer.finish()
    }

    #[test]
    fn replaced_blocks_are_read_instead_and_the_buffer_is_shared_until_they_are_many() {
        let blocks = numbered(100);
        let patched = blocks.replaced([(3, b"three".to_vec()), (99, Vec::new())]);
        assert!(Arc::ptr_eq(&blocks.buffer, &patched.buffer), "the buffer is shared");
        assert_eq!(
            (patched.get(3), patched.get(99), patched.get(4)),
            (&b"three"[..], &b""[..], &b"block 4"[..])
        );
        assert_eq!(blocks.get(3), b"block 3", "the original is as it was");

        // Past a sixteenth replaced, one new buffer with the same blocks.
        let many = patched.replaced((10..20).map(|i| (i, format!("new {i}").into_bytes())));
        assert!(!Arc::ptr_eq(&blocks.buffer, &many.buffer) && many.replaced.is_empty());
        let expected: Vec<Vec<u8>> = (0..100)
            .map(|i| match i {
                3 => b"three".to_vec(),
                99 => Vec::new(),
                10..20 => format!("new {i}").into_bytes(),
                _ => format!("block {i}").into_bytes(),
            })
            .collect();
        assert!((0..100).all(|i| many.get(i) == expected[i]));
    }

    #[test]
    fn blocks_and_their_replacements_are_persisted_and_read_back() {
        let patched = numbered(64).replaced([(7, b"seven".to_vec())]);
        let bytes = rmp_serde::to_vec(&patched).unwrap();
        let back: Blocks = rmp_serde::from_slice(&bytes).unwrap();
        assert_eq!(back.len(), 64);
        assert!((0..64).all(|i| back.get(i) == patched.get(i)));
        assert_eq!(back.replaced.len(), 1);
    }
}
