// The demo catalogue `npm start` loads into an empty embedded database: public-domain classics,
// described here in MARC 21 by this project, in several languages and material types, so that a
// newcomer has records to list, read and harvest from the first minute.
import type { DataField, MarcRecord } from '../marc/record.ts';

interface Work {
  title: string;
  subtitle?: string;
  author: string;
  dates: string;
  year: number;
  lang: string;
  country: string;
  place: string;
  publisher: string;
  subjects: string[];
  isbn?: string;
  /** leader/06: a = text, i = spoken audio, j = music recording, c = score, g = video, e = map */
  type?: string;
}

const WORKS: Work[] = [
  {
    title: 'Pride and prejudice',
    author: 'Austen, Jane',
    dates: '1775-1817',
    year: 1813,
    lang: 'eng',
    country: 'enk',
    place: 'London',
    publisher: 'T. Egerton',
    subjects: ['Courtship', 'Sisters', 'England -- Social life and customs -- 19th century -- Fiction'],
    isbn: '9780141439518',
  },
  {
    title: 'Emma',
    author: 'Austen, Jane',
    dates: '1775-1817',
    year: 1815,
    lang: 'eng',
    country: 'enk',
    place: 'London',
    publisher: 'John Murray',
    subjects: ['Young women', 'Matchmaking', 'England -- Fiction'],
  },
  {
    title: 'Persuasion',
    author: 'Austen, Jane',
    dates: '1775-1817',
    year: 1817,
    lang: 'eng',
    country: 'enk',
    place: 'London',
    publisher: 'John Murray',
    subjects: ['Love stories', 'England -- Social life and customs -- Fiction'],
  },
  {
    title: 'Great expectations',
    author: 'Dickens, Charles',
    dates: '1812-1870',
    year: 1861,
    lang: 'eng',
    country: 'enk',
    place: 'London',
    publisher: 'Chapman and Hall',
    subjects: ['Orphans', 'Bildungsromans', 'London (England) -- History -- 19th century -- Fiction'],
    isbn: '9780141439563',
  },
  {
    title: 'A tale of two cities',
    author: 'Dickens, Charles',
    dates: '1812-1870',
    year: 1859,
    lang: 'eng',
    country: 'enk',
    place: 'London',
    publisher: 'Chapman and Hall',
    subjects: ['France -- History -- Revolution, 1789-1799 -- Fiction', 'Historical fiction'],
  },
  {
    title: 'Oliver Twist',
    author: 'Dickens, Charles',
    dates: '1812-1870',
    year: 1838,
    lang: 'eng',
    country: 'enk',
    place: 'London',
    publisher: 'Richard Bentley',
    subjects: ['Orphans -- Fiction', 'Criminals -- Fiction', 'London (England) -- Fiction'],
  },
  {
    title: 'Jane Eyre',
    subtitle: 'an autobiography',
    author: 'Brontë, Charlotte',
    dates: '1816-1855',
    year: 1847,
    lang: 'eng',
    country: 'enk',
    place: 'London',
    publisher: 'Smith, Elder',
    subjects: ['Governesses -- Fiction', 'Love stories'],
  },
  {
    title: 'Wuthering Heights',
    author: 'Brontë, Emily',
    dates: '1818-1848',
    year: 1847,
    lang: 'eng',
    country: 'enk',
    place: 'London',
    publisher: 'Thomas Cautley Newby',
    subjects: ['Revenge -- Fiction', 'Yorkshire (England) -- Fiction'],
  },
  {
    title: 'Middlemarch',
    subtitle: 'a study of provincial life',
    author: 'Eliot, George',
    dates: '1819-1880',
    year: 1871,
    lang: 'eng',
    country: 'enk',
    place: 'Edinburgh',
    publisher: 'William Blackwood and Sons',
    subjects: ['Married people -- Fiction', 'England -- Social life and customs -- 19th century -- Fiction'],
  },
  {
    title: 'Frankenstein',
    subtitle: 'or, The modern Prometheus',
    author: 'Shelley, Mary Wollstonecraft',
    dates: '1797-1851',
    year: 1818,
    lang: 'eng',
    country: 'enk',
    place: 'London',
    publisher: 'Lackington, Hughes, Harding, Mavor & Jones',
    subjects: ['Monsters -- Fiction', 'Scientists -- Fiction', 'Horror tales'],
  },
  {
    title: 'Moby-Dick',
    subtitle: 'or, The whale',
    author: 'Melville, Herman',
    dates: '1819-1891',
    year: 1851,
    lang: 'eng',
    country: 'nyu',
    place: 'New York',
    publisher: 'Harper & Brothers',
    subjects: ['Whaling -- Fiction', 'Sea stories'],
  },
  {
    title: 'The adventures of Tom Sawyer',
    author: 'Twain, Mark',
    dates: '1835-1910',
    year: 1876,
    lang: 'eng',
    country: 'ctu',
    place: 'Hartford',
    publisher: 'American Publishing Company',
    subjects: ['Boys -- Juvenile fiction', 'Mississippi River -- Juvenile fiction'],
  },
  {
    title: 'Little women',
    author: 'Alcott, Louisa May',
    dates: '1832-1888',
    year: 1868,
    lang: 'eng',
    country: 'mau',
    place: 'Boston',
    publisher: 'Roberts Brothers',
    subjects: ['Sisters -- Juvenile fiction', 'Family life -- New England -- Juvenile fiction'],
  },
  {
    title: 'The origin of species by means of natural selection',
    author: 'Darwin, Charles',
    dates: '1809-1882',
    year: 1859,
    lang: 'eng',
    country: 'enk',
    place: 'London',
    publisher: 'John Murray',
    subjects: ['Evolution (Biology)', 'Natural selection'],
  },
  {
    title: 'The history of the decline and fall of the Roman Empire',
    author: 'Gibbon, Edward',
    dates: '1737-1794',
    year: 1776,
    lang: 'eng',
    country: 'enk',
    place: 'London',
    publisher: 'W. Strahan and T. Cadell',
    subjects: ['Rome -- History -- Empire, 30 B.C.-476 A.D.', 'Byzantine Empire -- History'],
  },
  {
    title: 'Madame Bovary',
    subtitle: 'mœurs de province',
    author: 'Flaubert, Gustave',
    dates: '1821-1880',
    year: 1857,
    lang: 'fre',
    country: 'fr',
    place: 'Paris',
    publisher: 'Michel Lévy frères',
    subjects: ['Adultery -- Fiction', 'Normandy (France) -- Fiction'],
  },
  {
    title: 'Les misérables',
    author: 'Hugo, Victor',
    dates: '1802-1885',
    year: 1862,
    lang: 'fre',
    country: 'fr',
    place: 'Paris',
    publisher: 'Pagnerre',
    subjects: ['Paris (France) -- History -- 19th century -- Fiction', 'Ex-convicts -- Fiction'],
  },
  {
    title: 'Le comte de Monte-Cristo',
    author: 'Dumas, Alexandre',
    dates: '1802-1870',
    year: 1844,
    lang: 'fre',
    country: 'fr',
    place: 'Paris',
    publisher: 'Pétion',
    subjects: ['Revenge -- Fiction', 'Adventure stories'],
  },
  {
    title: 'Die Leiden des jungen Werthers',
    author: 'Goethe, Johann Wolfgang von',
    dates: '1749-1832',
    year: 1774,
    lang: 'ger',
    country: 'gw',
    place: 'Leipzig',
    publisher: 'Weygand',
    subjects: ['Young men -- Fiction', 'Epistolary fiction'],
  },
  {
    title: 'Faust',
    subtitle: 'eine Tragödie',
    author: 'Goethe, Johann Wolfgang von',
    dates: '1749-1832',
    year: 1808,
    lang: 'ger',
    country: 'gw',
    place: 'Tübingen',
    publisher: 'Cotta',
    subjects: ['Faust, -approximately 1540 -- Drama', 'German drama'],
  },
  {
    title: 'Kinder- und Hausmärchen',
    author: 'Grimm, Jacob',
    dates: '1785-1863',
    year: 1812,
    lang: 'ger',
    country: 'gw',
    place: 'Berlin',
    publisher: 'Realschulbuchhandlung',
    subjects: ['Fairy tales -- Germany', 'Folklore -- Germany'],
  },
  {
    title: 'Don Quijote de la Mancha',
    author: 'Cervantes Saavedra, Miguel de',
    dates: '1547-1616',
    year: 1605,
    lang: 'spa',
    country: 'sp',
    place: 'Madrid',
    publisher: 'Juan de la Cuesta',
    subjects: ['Knights and knighthood -- Spain -- Fiction', 'Spain -- Social life and customs -- 16th century -- Fiction'],
  },
  {
    title: 'I promessi sposi',
    author: 'Manzoni, Alessandro',
    dates: '1785-1873',
    year: 1827,
    lang: 'ita',
    country: 'it',
    place: 'Milano',
    publisher: 'Vincenzo Ferrario',
    subjects: ['Lombardy (Italy) -- History -- 17th century -- Fiction', 'Historical fiction'],
  },
  {
    title: 'Война и мир',
    author: 'Толстой, Лев Николаевич',
    dates: '1828-1910',
    year: 1869,
    lang: 'rus',
    country: 'ru',
    place: 'Москва',
    publisher: 'Типография Т. Рис',
    subjects: ['Napoleonic Wars, 1800-1815 -- Russia -- Fiction', 'Russia -- History -- 1801-1917 -- Fiction'],
  },
  {
    title: 'Преступление и наказание',
    author: 'Достоевский, Фёдор Михайлович',
    dates: '1821-1881',
    year: 1866,
    lang: 'rus',
    country: 'ru',
    place: 'Санкт-Петербург',
    publisher: 'Русский вестник',
    subjects: ['Murder -- Fiction', 'Saint Petersburg (Russia) -- Fiction'],
  },
  {
    title: 'Ὀδύσσεια',
    author: 'Homer',
    dates: '',
    year: 1488,
    lang: 'grc',
    country: 'it',
    place: 'Firenze',
    publisher: 'Bernardus Nerlius',
    subjects: ['Odysseus (Greek mythology) -- Poetry', 'Epic poetry, Greek'],
  },
  {
    title: 'Brand',
    subtitle: 'et dramatisk digt',
    author: 'Ibsen, Henrik',
    dates: '1828-1906',
    year: 1866,
    lang: 'nor',
    country: 'dk',
    place: 'København',
    publisher: 'Gyldendal',
    subjects: ['Clergy -- Norway -- Drama', 'Norwegian drama'],
  },
  {
    title: 'Pride and prejudice',
    subtitle: 'unabridged audiobook',
    author: 'Austen, Jane',
    dates: '1775-1817',
    year: 2006,
    lang: 'eng',
    country: 'enk',
    place: 'London',
    publisher: 'Naxos AudioBooks',
    subjects: ['Courtship -- Fiction', 'Audiobooks'],
    type: 'i',
  },
  {
    title: 'Symphonies no. 5 and 7',
    author: 'Beethoven, Ludwig van',
    dates: '1770-1827',
    year: 1963,
    lang: 'zxx',
    country: 'gw',
    place: 'Hamburg',
    publisher: 'Deutsche Grammophon',
    subjects: ['Symphonies'],
    type: 'j',
  },
  {
    title: 'Die Zauberflöte',
    subtitle: 'eine grosse Oper in zwey Aufzügen',
    author: 'Mozart, Wolfgang Amadeus',
    dates: '1756-1791',
    year: 1793,
    lang: 'ger',
    country: 'gw',
    place: 'Bonn',
    publisher: 'N. Simrock',
    subjects: ['Operas -- Scores'],
    type: 'c',
  },
  {
    title: 'Metropolis',
    author: 'Lang, Fritz',
    dates: '1890-1976',
    year: 1927,
    lang: 'ger',
    country: 'gw',
    place: 'Berlin',
    publisher: 'Universum Film',
    subjects: ['Science fiction films', 'Silent films'],
    type: 'g',
  },
  {
    title: 'Map of the world on Mercator’s projection',
    author: 'Arrowsmith, Aaron',
    dates: '1750-1823',
    year: 1790,
    lang: 'eng',
    country: 'enk',
    place: 'London',
    publisher: 'A. Arrowsmith',
    subjects: ['World maps'],
    type: 'e',
  },
];

function field(tag: string, ind1: string, ind2: string, subfields: [string, string][]): DataField {
  return { tag, ind1, ind2, subfields: subfields.map(([code, value]) => ({ code, value })) };
}

/** Subdivision codes: $y period, $v form, $x topic, $z place. */
function subdivisionCode(text: string): string {
  if (/\d/.test(text)) return 'y';
  if (/^(Fiction|Juvenile fiction|Drama|Poetry|Scores)$/.test(text)) return 'v';
  if (/^(History|Social life and customs)$/.test(text)) return 'x';
  return 'z';
}

function subjectField(heading: string): DataField {
  const [main, ...subdivisions] = heading.split(' -- ');
  return field('650', ' ', '0', [['a', main!], ...subdivisions.map((s): [string, string] => [subdivisionCode(s), s])]);
}

/** The demo works as MARC 21 records, numbered demo0001… in 001 with 003 "Carrel" so re-loading updates them. */
export function demoRecords(): MarcRecord[] {
  return WORKS.map((w, i) => {
    const type = w.type ?? 'a';
    const f008 = `260101s${String(w.year).padStart(4, '0')}    ${w.country.padEnd(3, ' ')}${' '.repeat(17)}${w.lang} d`;
    const fields: MarcRecord['fields'] = [
      { tag: '001', value: `demo${String(i + 1).padStart(4, '0')}` },
      { tag: '003', value: 'Carrel' },
      { tag: '008', value: f008 },
    ];
    if (w.isbn) fields.push(field('020', ' ', ' ', [['a', w.isbn]]));
    fields.push(
      field(
        '100',
        '1',
        ' ',
        w.dates
          ? [
              ['a', `${w.author},`],
              ['d', w.dates],
            ]
          : [['a', w.author]],
      ),
    );
    fields.push(
      field(
        '245',
        '1',
        '0',
        w.subtitle
          ? [
              ['a', `${w.title} :`],
              ['b', `${w.subtitle} /`],
              ['c', w.author],
            ]
          : [
              ['a', `${w.title} /`],
              ['c', w.author],
            ],
      ),
    );
    fields.push(
      field('264', ' ', '1', [
        ['a', `${w.place} :`],
        ['b', `${w.publisher},`],
        ['c', `${w.year}.`],
      ]),
    );
    for (const subject of w.subjects) fields.push(subjectField(subject));
    return { leader: `00000n${type}m a2200000 i 4500`, fields };
  });
}
