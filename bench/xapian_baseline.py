"""The Xapian baseline of `npm run bench:search` (run by bench/search.ts with Debian's python3-xapian).

Builds a Xapian database from the catalogue bench/search.ts exported (the words of each bib's
indexed fields, as Carrel folds them, with Carrel's weights), unless one of the same catalogue is
already there, then answers the bench's query stream one query at a time in this process: BM25,
the first page of results and the exact number of matches (checkatleast = every document), as
Carrel answers. Prints one JSON object: the build's time and size, and per class the latencies
(p50, p99), CPU per query and each query's number of matches.

The export (TSV, one line per indexed field): bib id, field key (t title, a author, s subject,
e series, n note, o edition/imprint/extent, c call number, i ISBN-13), weight, words, and the
words' stems by Carrel's own stemmer (the queries carry theirs too), so both engines join the same forms.
"""

import argparse
import json
import os
import shutil
import sys
import time

import xapian

# Carrel's weights are multiples of 0.5 (title 10, authors 6, ... edition 0.5); Xapian's within-
# document frequencies are whole numbers, so each weight counts twice over.
WDF_PER_WEIGHT = 2
# Terms a field can be searched by (index=title, index=author), as Carrel's field keys.
FIELD_PREFIX = {"t": "XT", "a": "XA", "s": "XS", "e": "XE", "n": "XN", "c": "XC"}
STEM_PREFIX = "Z"
ISBN_PREFIX = "Q"

STOP_WORDS = set(
    "a an and are as at be but by for from in into is it not of on or that the their this to was with "
    "le la les de des du et un une der die das und el los las y il di".split()
)


def directory_size(path):
    return sum(os.path.getsize(os.path.join(d, f)) for d, _, files in os.walk(path) for f in files)


def build(export, path):
    """Indexes the export: every word at its position (phrases), its stem, and its field's stem."""
    if os.path.exists(path):
        shutil.rmtree(path)
    db = xapian.WritableDatabase(path, xapian.DB_CREATE_OR_OVERWRITE)
    started = time.perf_counter()
    cpu0 = time.process_time()
    doc, current, position = None, None, 0

    def flush():
        if doc is not None:
            db.replace_document(int(current), doc)

    with open(export, encoding="utf-8") as lines:
        for line in lines:
            fields = line.rstrip("\n").split("\t")
            bib, field, weight, words = fields[:4]
            # Each word's stem by Carrel's own stemmer, exported beside the words (ISBNs have none).
            stems = fields[4].split(" ") if len(fields) > 4 else []
            if bib != current:
                flush()
                doc, current, position = xapian.Document(), bib, 0
                if int(bib) % 50000 == 0:
                    db.commit()
            if field == "i":
                doc.add_boolean_term(ISBN_PREFIX + words)
                continue
            wdf = max(1, round(float(weight) * WDF_PER_WEIGHT))
            prefix = FIELD_PREFIX.get(field)
            for word, stemmed in zip(words.split(" "), stems):
                if not word:
                    continue
                # Carrel checks a phrase against the text of the record's fields, call numbers
                # (an item's) not among them. A term without positions would pass any phrase in
                # Xapian, so a call number's words are searched by their stems only.
                if field != "c":
                    position += 1
                    doc.add_posting(word, position, wdf)
                doc.add_term(STEM_PREFIX + stemmed, wdf)
                if prefix:
                    doc.add_term(prefix + stemmed, wdf)
    flush()
    db.commit()
    count = db.get_doccount()
    db.close()
    return {
        "seconds": round(time.perf_counter() - started, 1),
        "cpuSeconds": round(time.process_time() - cpu0, 1),
        "documents": count,
    }


def query_of(q):
    """A query as Carrel reads it: every word required (stop words only rank, unless all are stop
    words), a form with the same stem matching and the exact form ranking higher; a phrase in
    order; index= narrowing to a field; an ISBN as its 13 digits."""
    if q.get("isbn"):
        return xapian.Query(ISBN_PREFIX + q["isbn"])
    words = q["words"]
    if q.get("phrase"):
        return xapian.Query(xapian.Query.OP_PHRASE, [xapian.Query(w) for w in words], len(words))
    prefix = FIELD_PREFIX[q["index"][0]] if q.get("index") else None

    stem_of = dict(zip(words, q["stems"]))

    def word(w):
        if prefix:
            return xapian.Query(prefix + stem_of[w])
        return xapian.Query(xapian.Query.OP_OR, [xapian.Query(STEM_PREFIX + stem_of[w]), xapian.Query(w)])

    required = [w for w in words if w not in STOP_WORDS] or words
    optional = [w for w in words if w not in required]
    query = xapian.Query(xapian.Query.OP_AND, [word(w) for w in required])
    if optional:
        query = xapian.Query(xapian.Query.OP_AND_MAYBE, query, xapian.Query(xapian.Query.OP_OR, [word(w) for w in optional]))
    return query


def percentile(sorted_ms, p):
    if not sorted_ms:
        return None
    return round(sorted_ms[min(len(sorted_ms) - 1, int(len(sorted_ms) * p))], 3)


def answer(path, queries, limit):
    db = xapian.Database(path)
    enquire = xapian.Enquire(db)
    enquire.set_weighting_scheme(xapian.BM25Weight())
    every = db.get_doccount()
    classes = {}
    for name, stream in queries.items():
        latencies, totals = [], []
        cpu0 = time.process_time()
        for q in stream:
            started = time.perf_counter()
            enquire.set_query(query_of(q))
            mset = enquire.get_mset(0, limit, every)
            total = mset.get_matches_estimated()
            for match in mset:
                match.docid
            latencies.append((time.perf_counter() - started) * 1000)
            totals.append(total)
        cpu = (time.process_time() - cpu0) * 1000
        latencies.sort()
        classes[name] = {
            "queries": len(stream),
            "p50": percentile(latencies, 0.5),
            "p99": percentile(latencies, 0.99),
            "cpuMsPerQuery": round(cpu / max(len(stream), 1), 3),
            "totals": totals,
        }
    return classes


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--db", required=True, help="the Xapian database's directory")
    parser.add_argument("--export", help="the catalogue exported by bench/search.ts: build the database from it")
    parser.add_argument("--queries", required=True, help="JSON: class name -> [{words, phrase, index, isbn}]")
    parser.add_argument("--limit", type=int, default=20)
    args = parser.parse_args()
    built = build(args.export, args.db) if args.export else None
    with open(args.queries, encoding="utf-8") as f:
        queries = json.load(f)
    classes = answer(args.db, queries, args.limit)
    json.dump(
        {"version": xapian.version_string(), "built": built, "bytes": directory_size(args.db), "classes": classes},
        sys.stdout,
    )


if __name__ == "__main__":
    main()
