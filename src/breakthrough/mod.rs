//! Breakthrough on bitboards: any board from 2x4 to 8x8.
