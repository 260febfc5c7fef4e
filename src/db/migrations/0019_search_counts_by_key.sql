-- The counts of several words' matches (search_counts) are now kept by their lists' keys, not their
-- ids, so a search finds its count in the statement that looks its keys up. Counts kept under the
-- old form would never be read again: they are dropped, and counted again when first searched.
truncate search_counts;
