// Word lists for the synthetic catalogue. Each language has its commonest title words (the head of
// its Zipf distribution, most frequent first), syllables that make the long tail of rarer words,
// personal names, and places with publishers. Diacritics as each language writes them.

export interface Language {
  /** MARC language code (008/35-37). */
  code: string;
  words: string[];
  /** Syllables for tail words; a tail word joins two to four of them. */
  syllables: string[];
  forenames: string[];
  surnames: string[];
  places: { place: string; country: string; publishers: string[] }[];
  /** How a title joins a subtitle's first word ("and", "et", …): shared words still rank by Zipf. */
  and: string;
}

const split = (text: string) => text.trim().split(/\s+/);

export const LANGUAGES: Record<string, Language> = {
  eng: {
    code: 'eng',
    and: 'and',
    words: split(`history life world new story art war time people city house
      love guide introduction women children family music science nature garden
      america england london journey letters poems night days river water light
      science american british early modern century age short stories essays
      complete book years man woman men dark english land sea road home country
      death king queen black white red secret last first great little old young
      lost hidden golden silent wild winter summer spring autumn island mountain
      stone fire shadow memory dream heart mind body power politics economics
      theory practice handbook studies social culture religion philosophy health
      medicine travel cooking food design architecture photography painting
      letters diary journal voyage empire revolution republic democracy freedom
      justice law education teaching learning language languages writing reading
      mathematics physics chemistry biology animals birds trees flowers ocean
      sky stars moon sun earth planet space future past present return voices
      songs dance theatre film cinema television media technology computers
      business management money trade work workers industry farm village town`),
    syllables: split('al bar ber by cal chester don ford gar ham ing ley lin mar mer mor ness ridge ton wick worth ash brook dale field'),
    forenames: split(`James Mary John Patricia Robert Jennifer Michael Linda William Elizabeth David
      Barbara Richard Susan Joseph Jessica Thomas Sarah Charles Karen Margaret Helen Anne Edward
      George Henry Alice Emily Samuel Ruth Arthur Dorothy Walter Frances Harold Eleanor`),
    surnames: split(`Smith Johnson Williams Brown Jones Miller Davis Wilson Anderson Taylor Thomas
      Moore Martin Jackson Thompson White Harris Clark Lewis Robinson Walker Young Allen King Wright
      Scott Green Baker Adams Nelson Hill Campbell Mitchell Roberts Carter Phillips Evans Turner
      Parker Collins Edwards Stewart Morris Murphy Cook Rogers Morgan Cooper Peterson Bailey Reed
      Kelly Howard Ward Cox Richardson Wood Watson Brooks Bennett Gray Hughes Price Sanders Fletcher`),
    places: [
      {
        place: 'New York',
        country: 'nyu',
        publishers: ['Harper & Row', 'Random House', 'Knopf', 'Penguin Books', 'Scribner', 'W.W. Norton'],
      },
      { place: 'London', country: 'enk', publishers: ['Macmillan', 'Faber & Faber', 'Chatto & Windus', 'Routledge', 'Hodder & Stoughton'] },
      { place: 'Boston', country: 'mau', publishers: ['Little, Brown', 'Houghton Mifflin', 'Beacon Press'] },
      { place: 'Chicago', country: 'ilu', publishers: ['University of Chicago Press', 'Rand McNally'] },
      { place: 'Oxford', country: 'enk', publishers: ['Oxford University Press', 'Blackwell'] },
      { place: 'Toronto', country: 'onc', publishers: ['McClelland & Stewart', 'University of Toronto Press'] },
      { place: 'Sydney', country: 'at', publishers: ['Allen & Unwin', 'Picador Australia'] },
    ],
  },
  fre: {
    code: 'fre',
    and: 'et',
    words: split(`histoire vie monde nouvelle art guerre temps peuple ville maison amour guide
      femmes enfants famille musique nature jardin france paris voyage lettres poèmes nuit jours
      rivière eau lumière siècle contes essais livre années homme noir blanc rouge dernier premier
      grand petit vieux jeune perdu secret été hiver printemps île montagne pierre feu ombre mémoire
      rêve cœur esprit pouvoir politique économie théorie société culture religion philosophie
      santé médecine cuisine architecture peinture journal empire révolution république liberté
      justice droit éducation langue écriture lecture mathématiques étoiles mer ciel terre avenir
      passé présent retour voix chansons théâtre cinéma études mémoires écrits œuvres complètes`),
    syllables: split('bel cour mont val ville roche lac pré fon tai nier lière beau champ çon gné ré é'),
    forenames: split(
      'Jean Marie Pierre Françoise Michel Monique André Hélène Jacques Élise François Cécile Louis Thérèse René Geneviève Étienne Agnès Noël Chloé',
    ),
    surnames: split(
      'Martin Bernard Dubois Thomas Robert Richard Petit Durand Leroy Moreau Simon Laurent Lefèvre Michel García Lefebvre Roux Fournier Girard Bonnet Dupont Lambert Fontaine Rousseau Vincent Mercier Chevalier Bérenger Duchêne Ménard',
    ),
    places: [
      {
        place: 'Paris',
        country: 'fr',
        publishers: ['Gallimard', 'Éditions du Seuil', 'Flammarion', 'Grasset', 'Presses universitaires de France', 'Albin Michel'],
      },
      { place: 'Lyon', country: 'fr', publishers: ['Éditions Fage', 'Presses universitaires de Lyon'] },
      { place: 'Montréal', country: 'quc', publishers: ['Boréal', 'Éditions Québec Amérique', 'Leméac'] },
      { place: 'Bruxelles', country: 'be', publishers: ['Éditions Complexe', 'De Boeck'] },
    ],
  },
  ger: {
    code: 'ger',
    and: 'und',
    words: split(`geschichte leben welt neue kunst krieg zeit volk stadt haus liebe handbuch
      frauen kinder familie musik natur garten deutschland berlin reise briefe gedichte nacht tage
      fluss wasser licht jahrhundert märchen aufsätze buch jahre mann schwarz weiß rot letzte erste
      große kleine alte junge verlorene geheimnis sommer winter frühling insel berg stein feuer
      schatten erinnerung traum herz geist macht politik wirtschaft theorie gesellschaft kultur
      religion philosophie gesundheit medizin küche architektur malerei tagebuch reich revolution
      freiheit gerechtigkeit recht erziehung sprache schrift lesen mathematik sterne meer himmel
      erde zukunft vergangenheit rückkehr stimmen lieder theater schriften werke studien über`),
    syllables: split('berg burg dorf feld hau heim mann stein wald bach ling hof gärt müh schön grün straß bäck'),
    forenames: split(
      'Hans Anna Peter Ursula Klaus Monika Wolfgang Renate Jürgen Gisela Günter Helga Dieter Brigitte Jörg Käthe Uwe Bärbel Stefan Sabine',
    ),
    surnames: split(
      'Müller Schmidt Schneider Fischer Weber Meyer Wagner Becker Schulz Hoffmann Schäfer Koch Bauer Richter Klein Wolf Schröder Neumann Schwarz Zimmermann Braun Krüger Hofmann Hartmann Lange Schmitt Werner Krause Köhler Günther',
    ),
    places: [
      { place: 'Berlin', country: 'gw', publishers: ['Suhrkamp', 'Aufbau-Verlag', 'Rowohlt', 'Duncker & Humblot'] },
      { place: 'München', country: 'gw', publishers: ['C.H. Beck', 'Hanser', 'Piper', 'dtv'] },
      { place: 'Wien', country: 'au', publishers: ['Zsolnay', 'Böhlau'] },
      { place: 'Zürich', country: 'sz', publishers: ['Diogenes', 'Orell Füssli'] },
    ],
  },
  spa: {
    code: 'spa',
    and: 'y',
    words: split(`historia vida mundo nueva arte guerra tiempo pueblo ciudad casa amor guía
      mujeres niños familia música naturaleza jardín españa madrid viaje cartas poemas noche días
      río agua luz siglo cuentos ensayos libro años hombre negro blanco rojo último primero gran
      pequeño viejo joven perdido secreto verano invierno primavera isla montaña piedra fuego sombra
      memoria sueño corazón poder política economía teoría sociedad cultura religión filosofía salud
      medicina cocina arquitectura pintura diario imperio revolución república libertad justicia
      derecho educación lengua escritura lectura matemáticas estrellas mar cielo tierra futuro
      pasado regreso voces canciones teatro cine estudios obras completas`),
    syllables: split('al bar cas ción dor gal lla mar ñor ón par qui rre ta tor val ver zá'),
    forenames: split(
      'José María Juan Carmen Antonio Ana Manuel Isabel Francisco Dolores Luis Pilar Javier Teresa Miguel Lucía Ángel Rosa Ramón Inés',
    ),
    surnames: split(
      'García Rodríguez González Fernández López Martínez Sánchez Pérez Gómez Martín Jiménez Ruiz Hernández Díaz Moreno Muñoz Álvarez Romero Alonso Gutiérrez Navarro Torres Domínguez Vázquez Ramos Gil Ramírez Serrano Blanco Suárez',
    ),
    places: [
      { place: 'Madrid', country: 'sp', publishers: ['Alianza Editorial', 'Cátedra', 'Espasa-Calpe', 'Siruela'] },
      { place: 'Barcelona', country: 'sp', publishers: ['Anagrama', 'Tusquets', 'Seix Barral', 'Planeta'] },
      { place: 'México', country: 'mx', publishers: ['Fondo de Cultura Económica', 'Ediciones Era'] },
      { place: 'Buenos Aires', country: 'ag', publishers: ['Sudamericana', 'Emecé', 'Losada'] },
    ],
  },
  ita: {
    code: 'ita',
    and: 'e',
    words: split(`storia vita mondo nuova arte guerra tempo popolo città casa amore guida donne
      bambini famiglia musica natura giardino italia roma viaggio lettere poesie notte giorni fiume
      acqua luce secolo racconti saggi libro anni uomo nero bianco rosso ultimo primo grande piccolo
      vecchio giovane perduto segreto estate inverno primavera isola montagna pietra fuoco ombra
      memoria sogno cuore potere politica economia teoria società cultura religione filosofia
      salute medicina cucina architettura pittura diario impero rivoluzione repubblica libertà
      giustizia diritto educazione lingua scrittura lettura stelle mare cielo terra futuro passato
      ritorno voci canzoni teatro cinema studi opere`),
    syllables: split('bel car del fio gio lan mon nel pa ri san tel val ver zò ù'),
    forenames: split(
      'Giuseppe Maria Giovanni Anna Antonio Rosa Mario Giuseppina Luigi Angela Francesco Lucia Carlo Teresa Niccolò Caterina',
    ),
    surnames: split(
      'Rossi Russo Ferrari Esposito Bianchi Romano Colombo Ricci Marino Greco Bruno Gallo Conti De Luca Mancini Costa Giordano Rizzo Lombardi Moretti Fabbri Caruso',
    ),
    places: [
      { place: 'Milano', country: 'it', publishers: ['Mondadori', 'Feltrinelli', 'Adelphi', 'Rizzoli'] },
      { place: 'Torino', country: 'it', publishers: ['Einaudi', 'Bollati Boringhieri'] },
      { place: 'Roma', country: 'it', publishers: ['Laterza', 'Carocci'] },
    ],
  },
  swe: {
    code: 'swe',
    and: 'och',
    words: split(`historia liv värld nya konst krig tid folk stad hus kärlek handbok kvinnor barn
      familj musik natur trädgård sverige stockholm resa brev dikter natt dagar älv vatten ljus
      sekel sagor essäer bok år man svart vit röd sista första stora lilla gamla unga förlorade
      hemlighet sommar vinter vår ö fjäll sten eld skugga minne dröm hjärta makt politik ekonomi
      samhälle kultur religion filosofi hälsa mat dagbok frihet rätt språk läsning stjärnor hav
      himmel jord framtid återkomst röster sånger teater`),
    syllables: split('berg by dal fors holm lund sjö ström vik åker äng ö'),
    forenames: split('Lars Anna Karl Maria Erik Kristina Anders Margareta Per Elisabeth Björn Åsa Göran Märta'),
    surnames: split(
      'Andersson Johansson Karlsson Nilsson Eriksson Larsson Olsson Persson Svensson Gustafsson Pettersson Jönsson Lindström Åberg Öberg Lindqvist Bergström Söderberg',
    ),
    places: [
      { place: 'Stockholm', country: 'sw', publishers: ['Bonnier', 'Norstedt', 'Wahlström & Widstrand'] },
      { place: 'Göteborg', country: 'sw', publishers: ['Daidalos', 'Korpen'] },
    ],
  },
  pol: {
    code: 'pol',
    and: 'i',
    words: split(`historia życie świat nowa sztuka wojna czas naród miasto dom miłość przewodnik
      kobiety dzieci rodzina muzyka przyroda ogród polska warszawa podróż listy wiersze noc dni rzeka
      woda światło wiek opowiadania eseje książka lata człowiek czarny biały czerwony ostatni pierwszy
      wielki mały stary młody zaginiony tajemnica lato zima wiosna wyspa góra kamień ogień cień
      pamięć sen serce władza polityka gospodarka społeczeństwo kultura religia filozofia zdrowie
      dziennik wolność prawo język pismo gwiazdy morze niebo ziemia przyszłość przeszłość powrót`),
    syllables: split('bor ców gło kra łęk mie now pol rze sła szy wie zdrój ża'),
    forenames: split('Jan Anna Piotr Maria Krzysztof Katarzyna Andrzej Małgorzata Tomasz Agnieszka Paweł Barbara Michał Ewa Łukasz Zofia'),
    surnames: split(
      'Nowak Kowalski Wiśniewski Wójcik Kowalczyk Kamiński Lewandowski Zieliński Szymański Woźniak Dąbrowski Kozłowski Jankowski Mazur Wojciechowski Kwiatkowski Krawczyk Piotrowski Grabowski Nowakowski Pawłowski Michalski',
    ),
    places: [
      { place: 'Warszawa', country: 'pl', publishers: ['Państwowy Instytut Wydawniczy', 'Czytelnik', 'Wydawnictwo Naukowe PWN'] },
      { place: 'Kraków', country: 'pl', publishers: ['Wydawnictwo Literackie', 'Znak', 'Universitas'] },
    ],
  },
  rus: {
    code: 'rus',
    and: 'и',
    words: split(`история жизнь мир новая искусство война время народ город дом любовь путеводитель
      женщины дети семья музыка природа сад россия москва путешествие письма стихи ночь дни река вода
      свет век рассказы очерки книга годы человек черный белый красный последний первый великий
      малый старый молодой тайна лето зима весна остров гора камень огонь тень память сон сердце
      власть политика экономика теория общество культура религия философия здоровье медицина
      дневник империя революция свобода право язык письмо звезды море небо земля будущее прошлое
      возвращение голоса песни театр сочинения избранное`),
    syllables: split('бор вин гор дар жен зов кин лев мир нов пет рад сла тур хол чер шин ёл'),
    forenames: split('Александр Анна Сергей Мария Владимир Елена Николай Ольга Михаил Татьяна Иван Наталья Дмитрий Ирина Алексей Светлана'),
    surnames: split(
      'Иванов Смирнов Кузнецов Попов Васильев Петров Соколов Михайлов Новиков Федоров Морозов Волков Алексеев Лебедев Семенов Егоров Павлов Козлов Степанов Николаев',
    ),
    places: [
      { place: 'Москва', country: 'ru', publishers: ['Наука', 'Художественная литература', 'Эксмо', 'АСТ'] },
      { place: 'Санкт-Петербург', country: 'ru', publishers: ['Азбука', 'Лениздат'] },
    ],
  },
  gre: {
    code: 'gre',
    and: 'και',
    words: split(`ιστορία ζωή κόσμος νέα τέχνη πόλεμος χρόνος λαός πόλη σπίτι αγάπη οδηγός γυναίκες
      παιδιά οικογένεια μουσική φύση κήπος ελλάδα αθήνα ταξίδι γράμματα ποιήματα νύχτα μέρες ποτάμι
      νερό φως αιώνας διηγήματα δοκίμια βιβλίο χρόνια άνθρωπος μαύρο λευκό κόκκινο τελευταίος πρώτος
      μεγάλος μικρός παλιός νέος μυστικό καλοκαίρι χειμώνας άνοιξη νησί βουνό πέτρα φωτιά σκιά μνήμη
      όνειρο καρδιά εξουσία πολιτική οικονομία θεωρία κοινωνία πολιτισμός θρησκεία φιλοσοφία`),
    syllables: split('άκη βου γερ δη λά μέ νο πό ρι σο τά φι χώ'),
    forenames: split('Γιώργος Μαρία Κώστας Ελένη Νίκος Αικατερίνη Δημήτρης Σοφία Γιάννης Ειρήνη'),
    surnames: split('Παπαδόπουλος Παπαδημητρίου Οικονόμου Γεωργίου Νικολάου Καραγιάννης Βασιλείου Αθανασίου Μακρής Δημητρίου'),
    places: [{ place: 'Αθήνα', country: 'gr', publishers: ['Ίκαρος', 'Κέδρος', 'Εστία'] }],
  },
};

/** How often each language appears in the catalogue (a North American public library's mix). */
export const LANGUAGE_WEIGHTS: Record<string, number> = {
  eng: 70,
  spa: 8,
  fre: 6,
  ger: 5,
  ita: 3,
  rus: 3,
  pol: 2,
  swe: 2,
  gre: 1,
};

/** Topical subject headings (LCSH style), most common first. */
export const TOPICS = `Families|Love|Friendship|World War, 1939-1945|Women|Children|Detective and mystery stories|
  Cooking|Art|Music|Science|Animals|Dogs|Cats|Birds|Gardening|Travel|Religion|Philosophy|Economics|Education|
  Psychology|Health|Medicine|Architecture|Painting|Photography|Poetry|Drama|Mathematics|Physics|Chemistry|Biology|
  Ecology|Climate change|Computers|Artificial intelligence|Business|Management|Sports|Baseball|Soccer|Horses|Ships|
  Railroads|Automobiles|Space flight|Astronomy|Dinosaurs|Ghosts|Vampires|Dragons|Magic|Witches|Pirates|Spies|Murder|
  Immigrants|Slavery|Civil rights|Indigenous peoples|Cities and towns|Islands|Mountains|Oceans|Rivers|Forests|
  Farm life|Schools|Universities and colleges|Libraries|Books and reading|Language and languages|
  Translating and interpreting|Folklore|Mythology, Greek|Kings and rulers|Revolutions|Motion pictures|Television|
  Theater|Dance|Fashion|Food|Wine|Coffee`
  .split('|')
  .map((t) => t.trim());

/** Places for geographic headings and subdivisions, with diacritics as LCSH writes them. */
export const PLACES = [
  'United States',
  'England',
  'France',
  'Germany',
  'Spain',
  'Italy',
  'Canada',
  'Mexico',
  'Russia (Federation)',
  'Poland',
  'Sweden',
  'Greece',
  'Japan',
  'China',
  'India',
  'Brazil',
  'New York (N.Y.)',
  'London (England)',
  'Paris (France)',
  'Québec (Province)',
  'München (Germany)',
  'Kraków (Poland)',
  'São Paulo (Brazil)',
  'Zürich (Switzerland)',
  'Córdoba (Spain)',
  'Malmö (Sweden)',
  'Ireland',
  'Scotland',
  'Norway',
  'Egypt',
];

/** Subdivisions that follow a non-fiction heading ($x topical, $v form), by how often they do. */
export const SUBDIVISIONS: Record<string, { code: 'v' | 'x'; weight: number }> = {
  History: { code: 'x', weight: 40 },
  'Social life and customs': { code: 'x', weight: 10 },
  Biography: { code: 'v', weight: 10 },
  'Politics and government': { code: 'x', weight: 8 },
  'Handbooks, manuals, etc.': { code: 'v', weight: 5 },
  'Criticism and interpretation': { code: 'x', weight: 5 },
  'Pictorial works': { code: 'v', weight: 3 },
};
