// A judged relevance set over the shared real records (../shared/data/marc): fifty searches a
// patron or cataloguer would type, each with the records a cataloguer would expect on the first
// page's top five. Judged by reading the records, never by running a search: a record is named by
// what stays true of it wherever it is loaded (its 001, an ISBN it carries, or its title proper and
// author), never by a bib id.

/**
 * Which records a judgment means. Every part given must hold. Text is compared folded: lower case,
 * no diacritics, punctuation as spaces.
 */
export interface RecordKey {
  /** The 001, surrounding spaces dropped. */
  controlNumber?: string;
  /** The ISBN a 020 $a starts with, hyphens dropped. */
  isbn?: string;
  /** The title proper: the first 245's $a, exactly. */
  title?: string;
  /** Words anywhere in the first 245's $a, $b, $n and $p, in this order. */
  titleHas?: string;
  /** The start of the main entry (1XX $a), or of any 700 $a when the record has no main entry. */
  author?: string;
}

export interface Judgment {
  text: string;
  /** Why these records belong on top, in a line. */
  reason: string;
  relevant: RecordKey[];
}

const AUSTEN = 'austen, jane';
const PROKUDIN = 'prokudin-gorskii';
/** The Chinese translations of Pride and prejudice, in simplified characters (the first three) and in traditional. */
const AUSTEN_IN_CHINESE: RecordKey[] = ['004054751', '197026004', '004070668', 'cpy00034475', '003851486', 'c657181', '004263020'].map(
  (controlNumber) => ({ controlNumber }),
);

export const JUDGMENTS: Judgment[] = [
  // Known titles.
  {
    text: 'pride and prejudice',
    reason: "Austen's novel itself, any edition, before guides, retellings and essays that borrow the name.",
    relevant: [
      { title: 'Pride and prejudice', author: AUSTEN },
      { title: 'Pride & prejudice', author: AUSTEN },
    ],
  },
  {
    text: 'sense and sensibility',
    reason: "Austen's novel in any edition.",
    relevant: [
      { title: 'Sense and sensibility', author: AUSTEN },
      { title: 'Sense & sensibility', author: AUSTEN },
    ],
  },
  {
    text: 'northanger abbey',
    reason: 'The volumes that hold Northanger Abbey, alone first in the title or beside other novels.',
    relevant: [{ titleHas: 'northanger abbey' }],
  },
  {
    text: 'lady susan',
    reason: 'The volumes holding Lady Susan, alone with The Watsons and Sanditon or after Northanger Abbey.',
    relevant: [{ titleHas: 'lady susan' }],
  },
  {
    text: 'catharine',
    reason: "Austen's juvenilia volume, under each of its titles.",
    relevant: [{ titleHas: 'catharine', author: AUSTEN }],
  },
  {
    text: 'emma',
    reason: 'The one edition of Emma, then the collected novels given an added entry for it (not those that only list it).',
    relevant: [
      { controlNumber: '3091490' },
      { isbn: '0192547070' },
      { controlNumber: 'UkOxUb15597194' },
      { controlNumber: 'ocn0752900129' },
    ],
  },
  {
    text: 'persuasion',
    reason: 'The volumes with Persuasion in their title, and the collected novels given an added entry for it.',
    relevant: [{ titleHas: 'persuasion' }, { controlNumber: 'ocn0752900129' }],
  },
  {
    text: 'the annotated pride and prejudice',
    reason: 'Both printings of the Shapard annotated edition.',
    relevant: [{ controlNumber: '14533505' }, { controlNumber: '13523880' }],
  },
  {
    text: 'design patterns',
    reason: 'The Gamma et al. book; "patterns" alone also names a Python title, which is not it.',
    relevant: [{ controlNumber: '1598167' }],
  },
  {
    text: 'introduction to algorithms',
    reason: 'Cormen et al., by its exact title.',
    relevant: [{ controlNumber: '12370044' }],
  },
  {
    text: 'histoire du nouveau theatre',
    reason: "Serreau's history, typed without its accents.",
    relevant: [{ controlNumber: '000004951' }],
  },
  {
    text: 'python web programming',
    reason: "Holden's Python Web programming, then Web programming with Python in its subtitle.",
    relevant: [{ controlNumber: '12227277' }, { controlNumber: '12565514' }],
  },
  {
    text: 'learning python',
    reason: "Lutz's Learning Python; Gauld's Learn to program using Python is the next thing a reader wants.",
    relevant: [{ controlNumber: '13610512' }, { controlNumber: '12167239' }],
  },

  // Single common words: the records with the word in the title, not the many with it in a
  // subject heading, a series or a note.
  {
    text: 'life',
    reason: "Joseph Arch's Story of his life and Socialist way of life; not the novels with a Social life and customs heading.",
    relevant: [{ controlNumber: 'u144' }, { controlNumber: 'u13' }],
  },
  {
    text: 'collection',
    reason: 'The Jane Austen collection and the collection of critical essays; not books in a series called a collection.',
    relevant: [{ controlNumber: 'BTJ4645521C6' }, { controlNumber: '000703547' }],
  },
  {
    text: 'notes',
    reason: "Study notes: the Coles notes by title and the Bloom's notes by series; not a note that says the notes are in Japanese.",
    relevant: [{ controlNumber: '000033090055' }, { controlNumber: 'ocm44965854' }, { controlNumber: '672386' }],
  },

  // The novels in translation, as a reader of the language types the title.
  {
    text: 'orgueil et préjugés',
    reason: 'The French Pride and prejudice, singular or plural in the title.',
    relevant: [{ title: 'Orgueil et préjugés' }, { title: 'Orgueil et préjugé' }],
  },
  {
    text: 'stolz und vorurteil',
    reason: 'The German Pride and prejudice.',
    relevant: [{ title: 'Stolz und Vorurteil' }],
  },
  {
    text: 'duma i uprzedzenie',
    reason: 'The Polish Pride and prejudice.',
    relevant: [{ title: 'Duma i uprzedzenie' }],
  },
  {
    text: 'ylpeys ja ennakkoluulo',
    reason: 'The Finnish Pride and prejudice.',
    relevant: [{ title: 'Ylpeys ja ennakkoluulo' }],
  },
  {
    text: 'rozwazna i romantyczna',
    reason: 'The Polish Sense and sensibility, typed without its diacritic.',
    relevant: [{ title: 'Rozważna i romantyczna' }],
  },

  // Authors.
  {
    text: 'chabon',
    reason: "Both of Michael Chabon's novels.",
    relevant: [{ author: 'chabon, michael' }],
  },
  {
    text: 'mark lutz',
    reason: "Lutz's two Python books; other Marks (Hammond, Twain) do not write them.",
    relevant: [{ author: 'lutz, mark' }],
  },
  {
    text: 'gontaut-biron',
    reason: "The vicomte's Berlin memoirs, by his hyphenated surname.",
    relevant: [{ controlNumber: 'u3' }],
  },
  {
    text: 'clare west',
    reason: 'The two Oxford Bookworms retellings she wrote.',
    relevant: [{ author: 'west, clare' }],
  },
  {
    text: 'prokudin-gorskii',
    reason: 'Any of his Kostroma photographs: the surname as romanised without the breve, and hyphenated.',
    relevant: [{ author: PROKUDIN }],
  },

  // Subjects.
  {
    text: 'drug abuse',
    reason: 'The proceedings on drug dependence, whose subjects are drug abuse.',
    relevant: [{ controlNumber: '003035931' }],
  },
  {
    text: 'cave paintings',
    reason: 'Lascaux, under the subject Cave paintings.',
    relevant: [{ controlNumber: 'u233' }],
  },
  {
    text: 'jazz',
    reason: 'The Ray Charles recording, the one jazz record.',
    relevant: [{ controlNumber: '5637241' }],
  },
  {
    text: 'baseball',
    reason: 'Summerland, a novel about baseball (a subject and its summary say so).',
    relevant: [{ controlNumber: '12883376' }],
  },
  {
    text: 'perl database',
    reason: 'Programming the Perl DBI, the Perl book with Database management as a subject.',
    relevant: [{ controlNumber: 'fol05754809' }],
  },
  {
    text: 'inheritance and succession',
    reason: 'The Sense and sensibility editions given that subject.',
    relevant: [
      { controlNumber: '13221104' },
      { controlNumber: '3047186' },
      { controlNumber: 'BJY-5510' },
      { controlNumber: '12395217' },
      { controlNumber: '673059' },
      { controlNumber: '13787568' },
      { controlNumber: '3058660' },
      { controlNumber: '693479' },
      { controlNumber: '13097425' },
    ],
  },
  {
    text: 'onion domes',
    reason: 'The three Kostroma church photographs with the subject Onion domes.',
    relevant: [{ controlNumber: 'prk2000001899' }, { controlNumber: 'prk2000001900' }, { controlNumber: 'prk2000001905' }],
  },

  // Series.
  {
    text: 'norton critical edition',
    reason: 'The Norton critical editions (Pride and prejudice twice, Sense and sensibility), not the Norton anthology ones.',
    relevant: [{ isbn: '0393962946' }, { isbn: '0393976041' }, { isbn: '039397751X' }],
  },
  {
    text: "bloom's notes",
    reason: "The two Bloom's notes volumes on Pride and prejudice.",
    relevant: [{ controlNumber: 'ocm44965854' }, { controlNumber: '672386' }],
  },
  {
    text: 'views along the upper volga river',
    reason: 'The series every Prokudin-Gorskii photograph here belongs to.',
    relevant: [{ author: PROKUDIN }],
  },
  {
    text: 'sense and sensibility everyman',
    reason: "The Everyman's library editions of Sense and sensibility.",
    relevant: [
      { controlNumber: '000154247' },
      { controlNumber: '2516762' },
      { controlNumber: 'UkOxUb13768227' },
      { controlNumber: '1775188' },
      { controlNumber: 'UkOxUb10549368' },
    ],
  },

  // Phrases.
  {
    text: '"complete novels"',
    reason: 'The collected Austen novels, whatever else their titles say.',
    relevant: [{ titleHas: 'complete novels' }],
  },
  {
    text: '"young men"',
    reason: 'The essay on the young men of America, then the novel with Young men as a subject.',
    relevant: [{ controlNumber: '003051545' }, { controlNumber: '11939876' }],
  },
  {
    text: '"pride and prejudice" criticism',
    reason: 'Critical editions and books about the novel: Norton, study notes, essay collections.',
    relevant: [
      { isbn: '0393962946' },
      { isbn: '0393976041' },
      { controlNumber: '000703547' },
      { controlNumber: 'ocn013699900x' },
      { controlNumber: 'ocm44965854' },
      { controlNumber: '151704' },
      { controlNumber: '000033090055' },
      { controlNumber: '672386' },
      { controlNumber: '13607944' },
      { controlNumber: 'BLK-2358' },
      { isbn: '0877549451' },
      { controlNumber: '3086804' },
      { controlNumber: 'UkOxUb13048408' },
    ],
  },

  // Standard numbers, as printed on the book.
  {
    text: '9780141439518',
    reason: 'The Penguin classics Pride and prejudice, held under its ISBN-13 and under the same ISBN-10.',
    relevant: [{ controlNumber: '001395440' }, { controlNumber: '13113436' }],
  },
  {
    text: '0-19-282760-X',
    reason: "The World's classics Pride and prejudice, both records of that ISBN.",
    relevant: [{ isbn: '019282760X' }],
  },
  {
    text: '0596000278',
    reason: 'Programming Perl, third edition.',
    relevant: [{ controlNumber: 'fol05865967' }],
  },

  // Original scripts and their romanisation (880 fields, and one record catalogued in Japanese).
  {
    text: '傲慢与偏见',
    reason: "The Chinese Pride and prejudice translations, simplified and traditional (either form finds both), not Xiao Man's essays.",
    relevant: AUSTEN_IN_CHINESE,
  },
  {
    text: '傲慢與偏見',
    reason: "The same translations by the traditional characters, not Xiao Man's essays that share the title.",
    relevant: AUSTEN_IN_CHINESE,
  },
  {
    text: '理性與感性',
    reason: 'The two Taipei translations of Sense and sensibility.',
    relevant: [{ controlNumber: 'ocm35079637' }, { controlNumber: 'c03733422' }],
  },
  {
    text: 'Αγορά Μεσόγειο',
    reason: 'The Kos conference on the agora, by its Greek title.',
    relevant: [{ controlNumber: 'ocn814388508' }],
  },
  {
    text: 'ao man yu pian jian',
    reason: "The romanised Chinese Pride and prejudice translations, not Xiao Man's essays.",
    relevant: [
      { controlNumber: '004054751' },
      { controlNumber: '004070668' },
      { controlNumber: 'cpy00034475' },
      { controlNumber: '003851486' },
      { controlNumber: 'c657181' },
      { controlNumber: '004263020' },
    ],
  },
  {
    text: 'jifu to henken',
    reason: 'The Japanese Pride and prejudice by its reading, and the Kenkyusha edition that gives that title.',
    relevant: [{ isbn: '4102131035' }, { controlNumber: '29907139' }],
  },

  // The statistical datasets.
  {
    text: 'marketing method',
    reason: 'The two Eurostat tables on implementing a new marketing method.',
    relevant: [{ controlNumber: '3-065001035' }, { controlNumber: '8-065001035' }],
  },
];
