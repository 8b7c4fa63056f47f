-- The sample database that `sharc demo` writes and reads.
-- Regenerate it (from the repository root) with:
--   rm -f src/Sharc.Cli/Samples/sample.db && sqlite3 src/Sharc.Cli/Samples/sample.db < src/Sharc.Cli/Samples/sample.sql
PRAGMA page_size = 4096;
PRAGMA journal_mode = DELETE;

BEGIN;

-- A rowid table whose INTEGER PRIMARY KEY column is the rowid.
CREATE TABLE authors (
    id      INTEGER PRIMARY KEY,
    name    TEXT NOT NULL COLLATE NOCASE,
    born    INTEGER,
    rating  REAL,
    photo   BLOB
);

-- A rowid table that refers to authors, with a default and a CHECK constraint.
CREATE TABLE books (
    id         INTEGER PRIMARY KEY,
    author_id  INTEGER NOT NULL REFERENCES authors(id),
    title      TEXT NOT NULL,
    year       INTEGER,
    price      REAL DEFAULT 9.99 CHECK (price >= 0)
);

-- An index with a DESC key, and a partial index.
CREATE INDEX books_by_author ON books (author_id, year DESC);
CREATE INDEX cheap_books ON books (price) WHERE price < 10;

-- A WITHOUT ROWID table: stored in primary-key order, whatever the insertion order.
CREATE TABLE tags (
    book_id  INTEGER NOT NULL,
    tag      TEXT NOT NULL,
    PRIMARY KEY (book_id, tag)
) WITHOUT ROWID;

-- A view (Sharc lists views; reading them needs a SQL engine).
CREATE VIEW book_list AS
    SELECT b.title, a.name AS author, b.year
    FROM books AS b JOIN authors AS a ON a.id = b.author_id;

INSERT INTO authors (id, name, born, rating, photo) VALUES
    (1, 'Jane Austen',            1775, 4.5,  x'89504e470d0a1a0a'),
    (2, 'Mary Shelley',           1797, NULL, NULL),
    (3, 'Gabriel García Márquez', 1927, 4.25, NULL),
    (4, 'Murasaki Shikibu',       NULL, 3.0,  x'cafe');

INSERT INTO books (id, author_id, title, year, price) VALUES
    (1, 1, 'Pride and Prejudice',              1813, 7.5),
    (2, 1, 'Emma',                             1815, 12.0),
    (3, 2, 'Frankenstein',                     1818, 6.25),
    (4, 3, 'Cien años de soledad',             1967, NULL),
    (5, 4, '源氏物語 (The Tale of Genji)',      1008, 14.0);
INSERT INTO books (id, author_id, title, year) VALUES
    (6, 2, 'The Last Man', 1826);

INSERT INTO tags (book_id, tag) VALUES
    (5, 'classic'), (3, 'gothic'), (1, 'romance'), (3, 'classic'),
    (1, 'classic'), (4, 'magical realism'), (2, 'comedy'), (5, 'court');

-- A trigger (Sharc lists triggers; it never runs them).
CREATE TRIGGER authors_cascade AFTER DELETE ON authors
BEGIN
    DELETE FROM books WHERE author_id = old.id;
END;

COMMIT;
VACUUM;
