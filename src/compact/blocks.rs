//! Many small blocks held in one buffer (a packed table's records, `catalog::held`; the firearms'
//! forms, `read::rendered::firearm_forms`): 300,000 boxes at 100,000 firearms cost a pointer and an allocator's
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

/// A fresh buffer's blocks, added in index order into chunks of about a mebibyte, then copied
/// into one buffer of their exact size, each chunk freed as it is copied (`finish`). Blocks
/// written on several threads are written into a writer each and joined (`append`). Chunks, not
/// a box per block (300,000 boxes and their rounding at 100,000 firearms would be a building
/// node's peak) nor one buffer grown by doubling (up to twice its bytes while it grows).
#[derive(Default)]
pub struct Writer {
    chunks: Vec<Vec<u8>>,
    /// Where each block ends, counted over every chunk.
    ends: Vec<u32>,
    length: usize,
}

/// Bytes a chunk is allocated with (more when one block is larger).
const CHUNK: usize = 1 << 20;

impl Writer {
    /// For about `blocks` blocks.
    pub fn for_blocks(blocks: usize) -> Self {
        Self { ends: Vec::with_capacity(blocks), ..Self::default() }
    }

    pub fn push(&mut self, block: &[u8]) {
        let room = self.chunks.last().map_or(0, |chunk| chunk.capacity() - chunk.len());
        if room < block.len() || self.chunks.is_empty() {
            self.chunks.push(Vec::with_capacity(CHUNK.max(block.len())));
        }
        self.chunks.last_mut().expect("pushed above").extend_from_slice(block);
        self.length += block.len();
        self.ends.push(Self::end(self.length));
    }

    fn end(length: usize) -> u32 {
        u32::try_from(length).expect("a block buffer stays under 4 GiB")
    }

    /// `other`'s blocks after these: its chunks are taken over, not copied.
    pub fn append(&mut self, other: Writer) {
        let before = self.length;
        self.ends.extend(other.ends.into_iter().map(|end| Self::end(before + end as usize)));
        self.chunks.extend(other.chunks);
        self.length += other.length;
    }

    pub fn finish(self) -> Blocks {
        let mut bytes = Vec::with_capacity(self.length);
        for chunk in self.chunks {
            bytes.extend_from_slice(&chunk);
        }
        Blocks { buffer: Arc::new(Buffer { bytes, ends: self.ends }), replaced: BTreeMap::new() }
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
        let mut writer = Writer::for_blocks(blocks.len());
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
        let mut writer = Writer::for_blocks(count);
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
    fn blocks_written_in_chunks_and_joined_read_back_in_order_at_their_exact_size() {
        // Blocks of up to 1.5 chunks, so some fill a chunk of their own.
        let block = |i: usize| vec![(i % 251) as u8; (i * 7919) % (CHUNK + CHUNK / 2)];
        let (mut first, mut second) = (Writer::for_blocks(0), Writer::for_blocks(0));
        for i in 0..40 {
            if i < 25 { &mut first } else { &mut second }.push(&block(i));
        }
        first.append(second);
        let blocks = first.finish();
        assert_eq!(blocks.len(), 40);
        assert!((0..40).all(|i| blocks.get(i) == block(i)));
        let total: usize = (0..40).map(|i| block(i).len()).sum();
        assert_eq!((blocks.bytes_held(), blocks.buffer.bytes.capacity()), (total, total));
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
