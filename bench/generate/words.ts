import type { Lang } from '../config.js';

/** Word lists aligned by index across languages, for plausible catalogue texts. */
type Words = Record<Lang, readonly string[]>;

export const NOUNS: Words = {
  deu: [
    'Sechskantschraube',
    'Kabelbinder',
    'Schutzhandschuh',
    'Akku-Bohrschrauber',
    'Rohrschelle',
    'LED-Leuchte',
    'Klebeband',
    'Schlauchschelle',
    'Steckdosenleiste',
    'Winkelschleifer',
    'Dübel',
    'Arbeitsleuchte',
    'Kugelhahn',
    'Trennscheibe',
    'Gewindestange',
    'Lötstation',
  ],
  eng: [
    'Hexagon bolt',
    'Cable tie',
    'Protective glove',
    'Cordless drill driver',
    'Pipe clamp',
    'LED luminaire',
    'Adhesive tape',
    'Hose clamp',
    'Power strip',
    'Angle grinder',
    'Wall plug',
    'Work light',
    'Ball valve',
    'Cutting disc',
    'Threaded rod',
    'Soldering station',
  ],
  fra: [
    'Vis à tête hexagonale',
    'Collier de serrage',
    'Gant de protection',
    'Perceuse-visseuse sans fil',
    'Collier de tuyau',
    'Luminaire LED',
    'Ruban adhésif',
    'Collier de durite',
    'Multiprise',
    'Meuleuse d’angle',
    'Cheville',
    'Lampe de travail',
    'Robinet à bille',
    'Disque à tronçonner',
    'Tige filetée',
    'Station de soudage',
  ],
};

export const ADJECTIVES: Words = {
  deu: ['verzinkt', 'schwarz', 'robust', 'kompakt', 'rostfrei', 'hitzebeständig', 'flexibel', 'leicht'],
  eng: ['zinc-plated', 'black', 'heavy-duty', 'compact', 'stainless', 'heat-resistant', 'flexible', 'light'],
  fra: ['zingué', 'noir', 'robuste', 'compact', 'inoxydable', 'résistant à la chaleur', 'flexible', 'léger'],
};

export const SENTENCES: Words = {
  deu: [
    'Für den professionellen Einsatz in Industrie, Handwerk und Werkstatt entwickelt.',
    'Die hochwertige Verarbeitung sorgt für eine lange Lebensdauer auch bei täglicher Beanspruchung.',
    'Geprüft nach den einschlägigen Normen und mit CE-Kennzeichnung geliefert.',
    'Einfache Montage ohne Spezialwerkzeug, passend für gängige Standardmaße.',
    'Lieferung im wiederverschließbaren Karton mit Etikett für die Lagerhaltung.',
    'Beständig gegen Öl, Fett und die meisten Reinigungsmittel.',
  ],
  eng: [
    'Designed for professional use in industry, trades and the workshop.',
    'High-quality workmanship ensures a long service life even under daily use.',
    'Tested to the relevant standards and supplied with CE marking.',
    'Easy to fit without special tools, matching common standard sizes.',
    'Supplied in a resealable box with a label for stock keeping.',
    'Resistant to oil, grease and most cleaning agents.',
  ],
  fra: [
    'Conçu pour un usage professionnel dans l’industrie, l’artisanat et l’atelier.',
    'Une fabrication de qualité garantit une longue durée de vie, même en usage quotidien.',
    'Testé selon les normes en vigueur et livré avec le marquage CE.',
    'Montage simple sans outil spécial, adapté aux dimensions standard courantes.',
    'Livré dans une boîte refermable avec étiquette pour le stockage.',
    'Résistant à l’huile, à la graisse et à la plupart des produits de nettoyage.',
  ],
};

export const GROUP_WORDS: Words = {
  deu: [
    'Befestigungstechnik',
    'Elektrowerkzeuge',
    'Arbeitsschutz',
    'Sanitär',
    'Elektroinstallation',
    'Beleuchtung',
    'Klebstoffe',
    'Handwerkzeuge',
    'Lagertechnik',
    'Schweißtechnik',
  ],
  eng: [
    'Fastening',
    'Power tools',
    'Safety at work',
    'Plumbing',
    'Electrical installation',
    'Lighting',
    'Adhesives',
    'Hand tools',
    'Storage',
    'Welding',
  ],
  fra: [
    'Fixation',
    'Outillage électrique',
    'Sécurité au travail',
    'Sanitaire',
    'Installation électrique',
    'Éclairage',
    'Adhésifs',
    'Outillage à main',
    'Stockage',
    'Soudage',
  ],
};

export const COLOURS: Words = {
  deu: ['rot', 'blau', 'grün', 'schwarz', 'weiß', 'grau', 'gelb'],
  eng: ['red', 'blue', 'green', 'black', 'white', 'grey', 'yellow'],
  fra: ['rouge', 'bleu', 'vert', 'noir', 'blanc', 'gris', 'jaune'],
};

/** Properties of feature definitions: names per language and a unit (none for text-valued ones). */
export interface Property {
  names: Record<Lang, string>;
  unit: string | null;
  /** Upper bound of numeric values; 0 for colour-valued features. */
  max: number;
}

export const PROPERTIES: readonly Property[] = [
  { names: { deu: 'Länge', eng: 'Length', fra: 'Longueur' }, unit: 'mm', max: 2000 },
  { names: { deu: 'Breite', eng: 'Width', fra: 'Largeur' }, unit: 'mm', max: 1000 },
  { names: { deu: 'Höhe', eng: 'Height', fra: 'Hauteur' }, unit: 'mm', max: 1000 },
  { names: { deu: 'Gewicht', eng: 'Weight', fra: 'Poids' }, unit: 'kg', max: 50 },
  { names: { deu: 'Nennspannung', eng: 'Rated voltage', fra: 'Tension nominale' }, unit: 'V', max: 400 },
  { names: { deu: 'Leistung', eng: 'Power', fra: 'Puissance' }, unit: 'W', max: 3000 },
  { names: { deu: 'Farbe', eng: 'Colour', fra: 'Couleur' }, unit: null, max: 0 },
  { names: { deu: 'Durchmesser', eng: 'Diameter', fra: 'Diamètre' }, unit: 'mm', max: 300 },
  {
    names: { deu: 'Betriebstemperatur max.', eng: 'Max. operating temperature', fra: 'Température max.' },
    unit: '°C',
    max: 250,
  },
  { names: { deu: 'Drehmoment', eng: 'Torque', fra: 'Couple' }, unit: 'N·m', max: 500 },
  { names: { deu: 'Volumen', eng: 'Volume', fra: 'Volume' }, unit: 'l', max: 100 },
  { names: { deu: 'Druck', eng: 'Pressure', fra: 'Pression' }, unit: 'bar', max: 400 },
  { names: { deu: 'Drehzahl', eng: 'Speed', fra: 'Vitesse de rotation' }, unit: '1/min', max: 12000 },
  { names: { deu: 'Lichtstrom', eng: 'Luminous flux', fra: 'Flux lumineux' }, unit: 'lm', max: 20000 },
];
