//! The catalog's tables, one variant each: code that does something per table matches on a
//! `Table`, so a table added here is a compile error wherever it is not handled yet.

use std::fmt;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Table {
    Categories,
    Manufacturers,
    Calibers,
    Interfaces,
    Platforms,
    Firearms,
    Ammunition,
    Attachments,
}

impl Table {
    /// Every table in the order an import writes them and a summary lists them: a table comes
    /// after the tables its records refer to.
    pub const ALL: [Table; 8] = [
        Table::Categories,
        Table::Manufacturers,
        Table::Calibers,
        Table::Interfaces,
        Table::Platforms,
        Table::Firearms,
        Table::Ammunition,
        Table::Attachments,
    ];

    /// The table's name in the database.
    pub const fn name(self) -> &'static str {
        match self {
            Table::Categories => "categories",
            Table::Manufacturers => "manufacturers",
            Table::Calibers => "calibers",
            Table::Interfaces => "interfaces",
            Table::Platforms => "platforms",
            Table::Firearms => "firearms",
            Table::Ammunition => "ammunition",
            Table::Attachments => "attachments",
        }
    }

    /// The table named `name`, None for any other name (a child table, a table of accounts...).
    pub fn from_name(name: &str) -> Option<Table> {
        Table::ALL.into_iter().find(|table| table.name() == name)
    }

    /// A record of the table as data-file messages and the import's memory of files name it.
    pub const fn kind(self) -> &'static str {
        match self {
            Table::Categories => "category",
            Table::Manufacturers => "manufacturer",
            Table::Calibers => "caliber",
            Table::Interfaces => "interface",
            Table::Platforms => "platform",
            Table::Firearms => "firearm",
            Table::Ammunition => "ammunition",
            Table::Attachments => "attachment",
        }
    }

    /// The prefix of the table's change events (`firearm` gives firearm.created...), None for
    /// resources that have none.
    pub const fn event_prefix(self) -> Option<&'static str> {
        match self {
            Table::Categories => Some("category"),
            Table::Manufacturers => Some("manufacturer"),
            Table::Calibers => Some("caliber"),
            Table::Firearms => Some("firearm"),
            Table::Interfaces | Table::Platforms | Table::Ammunition | Table::Attachments => None,
        }
    }

    /// Child tables replaced whenever a parent record changes: (table, parent key column).
    pub const fn children(self) -> &'static [(&'static str, &'static str)] {
        match self {
            Table::Platforms => &[("platform_interfaces", "platform_id")],
            Table::Firearms => &[
                ("firearm_calibers", "firearm_id"),
                ("firearm_users", "firearm_id"),
                ("images", "firearm_id"),
                ("firearm_interfaces", "firearm_id"),
                ("firearm_game_stats", "firearm_id"),
            ],
            Table::Attachments => &[("attachment_interfaces", "attachment_id")],
            Table::Categories
            | Table::Manufacturers
            | Table::Calibers
            | Table::Interfaces
            | Table::Ammunition => &[],
        }
    }

    /// Record keys held in child tables rather than in columns of the table.
    pub const fn child_keys(self) -> &'static [&'static str] {
        match self {
            Table::Platforms | Table::Attachments => &["interfaces"],
            Table::Firearms => &["calibers", "users", "images", "interfaces"],
            Table::Categories
            | Table::Manufacturers
            | Table::Calibers
            | Table::Interfaces
            | Table::Ammunition => &[],
        }
    }
}

impl fmt::Display for Table {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_table_is_found_by_its_name_and_no_other_name_is() {
        for table in Table::ALL {
            assert_eq!(Table::from_name(table.name()), Some(table));
        }
        assert_eq!(Table::from_name("firearm_calibers"), None);
        assert_eq!(Table::from_name("Firearms"), None);
    }

    #[test]
    fn a_child_key_is_held_by_a_child_table() {
        for table in Table::ALL {
            assert_eq!(table.children().is_empty(), table.child_keys().is_empty(), "{table}");
        }
    }
}
