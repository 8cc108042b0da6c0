//! The eight animals.

use std::fmt;
use std::ops::{Index, IndexMut};

/// An animal kind. The discriminant is the standard rank minus one. RULES §2.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum Role {
    /// 鼠, rank 1: swims, captures the Elephant.
    Rat = 0,
    /// 猫, rank 2.
    Cat = 1,
    /// 狼, rank 3 (4 under `wolf_over_dog`).
    Wolf = 2,
    /// 狗, rank 4 (3 under `wolf_over_dog`).
    Dog = 3,
    /// 豹, rank 5.
    Leopard = 4,
    /// 虎, rank 6: jumps rivers.
    Tiger = 5,
    /// 狮, rank 7: jumps rivers.
    Lion = 6,
    /// 象, rank 8: cannot capture the Rat.
    Elephant = 7,
}

impl Role {
    /// All animals, weakest first.
    pub const ALL: [Role; 8] = [
        Role::Rat,
        Role::Cat,
        Role::Wolf,
        Role::Dog,
        Role::Leopard,
        Role::Tiger,
        Role::Lion,
        Role::Elephant,
    ];

    /// 0 for the Rat … 7 for the Elephant.
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The role with index `i` (0–7).
    #[inline]
    pub const fn from_index(i: usize) -> Option<Role> {
        if i < 8 {
            Some(Role::ALL[i])
        } else {
            None
        }
    }

    /// The standard rank (1–8), RULES §2. See [`crate::Rules::rank`] for the rank under a rule set.
    #[inline]
    pub const fn standard_rank(self) -> u8 {
        self as u8 + 1
    }

    /// The uppercase letter: `E L T P D W C R`.
    pub const fn letter(self) -> char {
        match self {
            Role::Rat => 'R',
            Role::Cat => 'C',
            Role::Wolf => 'W',
            Role::Dog => 'D',
            Role::Leopard => 'P',
            Role::Tiger => 'T',
            Role::Lion => 'L',
            Role::Elephant => 'E',
        }
    }

    /// The role of a letter, either case.
    pub const fn from_letter(c: char) -> Option<Role> {
        Some(match c.to_ascii_uppercase() {
            'R' => Role::Rat,
            'C' => Role::Cat,
            'W' => Role::Wolf,
            'D' => Role::Dog,
            'P' => Role::Leopard,
            'T' => Role::Tiger,
            'L' => Role::Lion,
            'E' => Role::Elephant,
            _ => return None,
        })
    }

    /// The Chinese character: 象 狮 虎 豹 狗 狼 猫 鼠.
    pub const fn chinese(self) -> char {
        match self {
            Role::Rat => '鼠',
            Role::Cat => '猫',
            Role::Wolf => '狼',
            Role::Dog => '狗',
            Role::Leopard => '豹',
            Role::Tiger => '虎',
            Role::Lion => '狮',
            Role::Elephant => '象',
        }
    }

    /// The role of a Chinese character (simplified or traditional forms).
    pub const fn from_chinese(c: char) -> Option<Role> {
        Some(match c {
            '鼠' => Role::Rat,
            '猫' | '貓' => Role::Cat,
            '狼' => Role::Wolf,
            '狗' => Role::Dog,
            '豹' => Role::Leopard,
            '虎' => Role::Tiger,
            '狮' | '獅' => Role::Lion,
            '象' => Role::Elephant,
            _ => return None,
        })
    }

    /// The English name, lowercase.
    pub const fn name(self) -> &'static str {
        match self {
            Role::Rat => "rat",
            Role::Cat => "cat",
            Role::Wolf => "wolf",
            Role::Dog => "dog",
            Role::Leopard => "leopard",
            Role::Tiger => "tiger",
            Role::Lion => "lion",
            Role::Elephant => "elephant",
        }
    }

    /// Whether this animal may jump rivers (Lion and Tiger). RULES §4.4.
    #[inline]
    pub const fn jumps(self) -> bool {
        matches!(self, Role::Lion | Role::Tiger)
    }
}

impl fmt::Display for Role {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A value for each role, indexed by [`Role`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct ByRole<T>(pub [T; 8]);

impl<T> Index<Role> for ByRole<T> {
    type Output = T;
    #[inline]
    fn index(&self, r: Role) -> &T {
        &self.0[r.index()]
    }
}

impl<T> IndexMut<Role> for ByRole<T> {
    #[inline]
    fn index_mut(&mut self, r: Role) -> &mut T {
        &mut self.0[r.index()]
    }
}
