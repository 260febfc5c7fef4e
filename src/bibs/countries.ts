// Names for the MARC Code List for Countries (Library of Congress), the codes of 008/15-17: current
// countries, and the states, provinces and nations that MARC codes separately.
const COUNTRIES: Record<string, string> = {
  // United States and its states
  xxu: 'United States', alu: 'Alabama', aku: 'Alaska', azu: 'Arizona', aru: 'Arkansas', cau: 'California', cou: 'Colorado',
  ctu: 'Connecticut', deu: 'Delaware', dcu: 'District of Columbia', flu: 'Florida', gau: 'Georgia', hiu: 'Hawaii', idu: 'Idaho',
  ilu: 'Illinois', inu: 'Indiana', iau: 'Iowa', ksu: 'Kansas', kyu: 'Kentucky', lau: 'Louisiana', meu: 'Maine', mdu: 'Maryland',
  mau: 'Massachusetts', miu: 'Michigan', mnu: 'Minnesota', msu: 'Mississippi', mou: 'Missouri', mtu: 'Montana', nbu: 'Nebraska',
  nvu: 'Nevada', nhu: 'New Hampshire', nju: 'New Jersey', nmu: 'New Mexico', nyu: 'New York (State)', ncu: 'North Carolina',
  ndu: 'North Dakota', ohu: 'Ohio', oku: 'Oklahoma', oru: 'Oregon', pau: 'Pennsylvania', riu: 'Rhode Island', scu: 'South Carolina',
  sdu: 'South Dakota', tnu: 'Tennessee', txu: 'Texas', utu: 'Utah', vtu: 'Vermont', vau: 'Virginia', wau: 'Washington (State)',
  wvu: 'West Virginia', wiu: 'Wisconsin', wyu: 'Wyoming',
  // Canada and its provinces and territories
  xxc: 'Canada', abc: 'Alberta', bcc: 'British Columbia', mbc: 'Manitoba', nkc: 'New Brunswick', nfc: 'Newfoundland and Labrador',
  ntc: 'Northwest Territories', nsc: 'Nova Scotia', nuc: 'Nunavut', onc: 'Ontario', pic: 'Prince Edward Island',
  quc: 'Québec (Province)', snc: 'Saskatchewan', ykc: 'Yukon Territory',
  // United Kingdom and its nations
  xxk: 'United Kingdom', enk: 'England', stk: 'Scotland', wlk: 'Wales', nik: 'Northern Ireland',
  // Australia and its states and territories
  at: 'Australia', aca: 'Australian Capital Territory', qea: 'Queensland', tma: 'Tasmania', vra: 'Victoria', wea: 'Western Australia',
  xna: 'New South Wales', xoa: 'Northern Territory', xra: 'South Australia',
  // Other countries
  af: 'Afghanistan', aa: 'Albania', ae: 'Algeria', an: 'Andorra', ao: 'Angola', am: 'Anguilla', ay: 'Antarctica',
  aq: 'Antigua and Barbuda', ag: 'Argentina', ai: 'Armenia (Republic)', aw: 'Aruba', au: 'Austria', aj: 'Azerbaijan',
  bf: 'Bahamas', ba: 'Bahrain', bg: 'Bangladesh', bb: 'Barbados', bw: 'Belarus', be: 'Belgium', bh: 'Belize', dm: 'Benin',
  bm: 'Bermuda Islands', bt: 'Bhutan', bo: 'Bolivia', bn: 'Bosnia and Herzegovina', bs: 'Botswana', bl: 'Brazil', bx: 'Brunei',
  bu: 'Bulgaria', uv: 'Burkina Faso', br: 'Burma', bd: 'Burundi', cb: 'Cambodia', cm: 'Cameroon', cv: 'Cabo Verde',
  cj: 'Cayman Islands', cx: 'Central African Republic', cd: 'Chad', cl: 'Chile', cc: 'China', ch: 'China (Republic : 1949- )',
  ck: 'Colombia', cq: 'Comoros', cf: 'Congo (Brazzaville)', cg: 'Congo (Democratic Republic)', cw: 'Cook Islands',
  cr: 'Costa Rica', iv: "Côte d'Ivoire", ci: 'Croatia', cu: 'Cuba', co: 'Curaçao', cy: 'Cyprus', xr: 'Czech Republic',
  dk: 'Denmark', ft: 'Djibouti', dq: 'Dominica', dr: 'Dominican Republic', ec: 'Ecuador', ua: 'Egypt', es: 'El Salvador',
  eg: 'Equatorial Guinea', ea: 'Eritrea', er: 'Estonia', sq: 'Eswatini', et: 'Ethiopia', fa: 'Faroe Islands', fj: 'Fiji',
  fi: 'Finland', fr: 'France', fg: 'French Guiana', fp: 'French Polynesia', go: 'Gabon', gm: 'Gambia', gz: 'Gaza Strip',
  gs: 'Georgia (Republic)', gw: 'Germany', gh: 'Ghana', gi: 'Gibraltar', gr: 'Greece', gl: 'Greenland', gd: 'Grenada',
  gp: 'Guadeloupe', gu: 'Guam', gt: 'Guatemala', gv: 'Guinea', pg: 'Guinea-Bissau', gy: 'Guyana', ht: 'Haiti', ho: 'Honduras',
  hu: 'Hungary', ic: 'Iceland', ii: 'India', io: 'Indonesia', ir: 'Iran', iq: 'Iraq', ie: 'Ireland', is: 'Israel', it: 'Italy',
  jm: 'Jamaica', ja: 'Japan', jo: 'Jordan', kz: 'Kazakhstan', ke: 'Kenya', gb: 'Kiribati', kn: 'Korea (North)',
  ko: 'Korea (South)', kv: 'Kosovo', ku: 'Kuwait', kg: 'Kyrgyzstan', ls: 'Laos', lv: 'Latvia', le: 'Lebanon', lo: 'Lesotho',
  lb: 'Liberia', ly: 'Libya', lh: 'Liechtenstein', li: 'Lithuania', lu: 'Luxembourg', mg: 'Madagascar', mw: 'Malawi',
  my: 'Malaysia', xc: 'Maldives', ml: 'Mali', mm: 'Malta', xe: 'Marshall Islands', mq: 'Martinique', mu: 'Mauritania',
  mf: 'Mauritius', mx: 'Mexico', fm: 'Micronesia (Federated States)', mv: 'Moldova', mc: 'Monaco', mp: 'Mongolia',
  mo: 'Montenegro', mj: 'Montserrat', mr: 'Morocco', mz: 'Mozambique', sx: 'Namibia', nu: 'Nauru', np: 'Nepal',
  ne: 'Netherlands', nl: 'New Caledonia', nz: 'New Zealand', nq: 'Nicaragua', ng: 'Niger', nr: 'Nigeria', xn: 'North Macedonia',
  no: 'Norway', mk: 'Oman', pk: 'Pakistan', pw: 'Palau', pn: 'Panama', pp: 'Papua New Guinea', py: 'Paraguay', pe: 'Peru',
  ph: 'Philippines', pl: 'Poland', po: 'Portugal', pr: 'Puerto Rico', qa: 'Qatar', re: 'Réunion', rm: 'Romania',
  ru: 'Russia (Federation)', rw: 'Rwanda', xj: 'Saint Helena', xd: 'Saint Kitts-Nevis', xk: 'Saint Lucia',
  xm: 'Saint Vincent and the Grenadines', ws: 'Samoa', sm: 'San Marino', sf: 'Sao Tome and Principe', su: 'Saudi Arabia',
  sg: 'Senegal', rb: 'Serbia', se: 'Seychelles', sl: 'Sierra Leone', si: 'Singapore', xo: 'Slovakia', xv: 'Slovenia',
  bp: 'Solomon Islands', so: 'Somalia', sa: 'South Africa', sd: 'South Sudan', sp: 'Spain', ce: 'Sri Lanka', sj: 'Sudan',
  sr: 'Surinam', sw: 'Sweden', sz: 'Switzerland', sy: 'Syria', ta: 'Tajikistan', tz: 'Tanzania', th: 'Thailand',
  em: 'Timor-Leste', tg: 'Togo', to: 'Tonga', tr: 'Trinidad and Tobago', ti: 'Tunisia', tu: 'Turkey', tk: 'Turkmenistan',
  tv: 'Tuvalu', ug: 'Uganda', un: 'Ukraine', ts: 'United Arab Emirates', uy: 'Uruguay', uz: 'Uzbekistan', nn: 'Vanuatu',
  vc: 'Vatican City', ve: 'Venezuela', vm: 'Vietnam', vb: 'British Virgin Islands', vi: 'Virgin Islands of the United States',
  wj: 'West Bank of the Jordan River', ss: 'Western Sahara', ye: 'Yemen', za: 'Zambia', rh: 'Zimbabwe',
  // Not a place
  xx: 'No place, unknown, or undetermined', vp: 'Various places',
};

/** A MARC country code's name; the code itself when the list does not have it. */
export function countryName(code: string): string {
  return COUNTRIES[code] ?? code;
}
