import type { RequestContext } from '../domain/context.js';
import { defineFeature, setFeature } from '../domain/features/feature.service.js';
import { createProduct } from '../domain/products/product.service.js';
import { setText } from '../domain/texts/text.service.js';

/** Feature definitions in the style of ECLASS IRDIs (FT_IDREF), with names in deu and eng. */
const FEATURES = {
  voltage: { ftidref: '0173-1#02-AAB381#005', unit: 'V', deu: 'Nennspannung', eng: 'Rated voltage' },
  capacity: { ftidref: '0173-1#02-AAC895#004', unit: 'Ah', deu: 'Akkukapazität', eng: 'Battery capacity' },
  torque: { ftidref: '0173-1#02-AAL407#003', unit: 'Nm', deu: 'Max. Drehmoment', eng: 'Maximum torque' },
  power: { ftidref: '0173-1#02-AAB713#006', unit: 'W', deu: 'Nennleistung', eng: 'Rated power' },
  weight: { ftidref: '0173-1#02-AAB975#005', unit: 'kg', deu: 'Gewicht', eng: 'Weight' },
  discDiameter: {
    ftidref: '0173-1#02-AAA146#007',
    unit: 'mm',
    deu: 'Scheibendurchmesser',
    eng: 'Disc diameter',
  },
  thread: { ftidref: '0173-1#02-AAD018#004', unit: 'mm', deu: 'Gewindedurchmesser', eng: 'Thread diameter' },
  length: { ftidref: '0173-1#02-AAB999#004', unit: 'mm', deu: 'Länge', eng: 'Length' },
  material: { ftidref: '0173-1#02-AAN505#002', unit: null, deu: 'Werkstoff', eng: 'Material' },
  drive: { ftidref: '0173-1#02-AAK652#003', unit: null, deu: 'Antrieb', eng: 'Drive' },
  crossSection: {
    ftidref: '0173-1#02-AAI230#003',
    unit: 'mm²',
    deu: 'Leiterquerschnitt',
    eng: 'Conductor cross-section',
  },
  cores: { ftidref: '0173-1#02-AAD931#006', unit: null, deu: 'Aderzahl', eng: 'Number of cores' },
  protection: { ftidref: '0173-1#02-AAE471#003', unit: null, deu: 'Schutzart', eng: 'Degree of protection' },
  packSize: { ftidref: '0173-1#02-AAS143#002', unit: 'Stk', deu: 'Verpackungseinheit', eng: 'Pack size' },
} as const;

type FeatureKey = keyof typeof FEATURES;
/** [feature, value deu, value eng (default: same), unit of this product (default: the definition's)] */
type FeatureValue = [FeatureKey, string, string?, string?];

interface DemoProduct {
  pid: string;
  deu: string;
  eng: string;
  mpn?: string;
  long?: [deu: string, eng: string];
  features?: FeatureValue[];
  variants?: DemoProduct[];
}

const SUPPLIER = 'DEMO-WERKZEUG-GMBH';

const CATALOGUE: DemoProduct[] = [
  {
    pid: 'ABS-18',
    deu: 'Akku-Bohrschrauber 18 V',
    eng: 'Cordless drill/driver 18 V',
    mpn: 'DD18-2',
    long: [
      '<p>Kompakter Bohrschrauber mit <b>2-Gang-Getriebe</b> und 21-stufiger Drehmomentkupplung.</p>\n<ul><li>LED-Arbeitslicht</li><li>Schnellspannbohrfutter 13 mm</li></ul>',
      '<p>Compact drill/driver with <b>2-speed gearbox</b> and 21-stage torque clutch.</p>\n<ul><li>LED work light</li><li>13 mm keyless chuck</li></ul>',
    ],
    features: [
      ['voltage', '18'],
      ['torque', '60'],
      ['weight', '1,3', '1.3'],
    ],
    variants: [
      {
        pid: 'ABS-18-SOLO',
        deu: 'Akku-Bohrschrauber 18 V, ohne Akku',
        eng: 'Cordless drill/driver 18 V, bare tool',
        features: [['weight', '1,1', '1.1']],
      },
      {
        pid: 'ABS-18-2AH',
        deu: 'Akku-Bohrschrauber 18 V, 2 x 2,0 Ah',
        eng: 'Cordless drill/driver 18 V, 2 x 2.0 Ah',
        features: [['capacity', '2,0', '2.0']],
      },
      {
        pid: 'ABS-18-4AH',
        deu: 'Akku-Bohrschrauber 18 V, 2 x 4,0 Ah',
        eng: 'Cordless drill/driver 18 V, 2 x 4.0 Ah',
        features: [['capacity', '4,0', '4.0']],
      },
    ],
  },
  {
    pid: 'ASS-18',
    deu: 'Akku-Schlagschrauber 18 V, 1/2"',
    eng: 'Cordless impact wrench 18 V, 1/2"',
    mpn: 'IW18-500',
    long: [
      '<p>Bürstenloser Motor, 3 Drehzahlstufen, Vierkantaufnahme 1/2".</p>',
      '<p>Brushless motor, 3 speed settings, 1/2" square drive.</p>',
    ],
    features: [
      ['voltage', '18'],
      ['torque', '500'],
      ['drive', 'Vierkant 1/2"', 'Square drive 1/2"'],
    ],
    variants: [
      {
        pid: 'ASS-18-SOLO',
        deu: 'Akku-Schlagschrauber 18 V, ohne Akku',
        eng: 'Cordless impact wrench 18 V, bare tool',
        features: [['weight', '1,6', '1.6']],
      },
      {
        pid: 'ASS-18-5AH',
        deu: 'Akku-Schlagschrauber 18 V, 2 x 5,0 Ah',
        eng: 'Cordless impact wrench 18 V, 2 x 5.0 Ah',
        features: [['capacity', '5,0', '5.0']],
      },
    ],
  },
  {
    pid: 'WS-125',
    deu: 'Winkelschleifer 125 mm, 1100 W',
    eng: 'Angle grinder 125 mm, 1100 W',
    mpn: 'AG125-11',
    long: [
      '<p>Mit Wiederanlaufschutz und werkzeugloser Schutzhaubenverstellung.</p>',
      '<p>With restart protection and tool-free guard adjustment.</p>',
    ],
    features: [
      ['power', '1100'],
      ['discDiameter', '125'],
      ['weight', '2,2', '2.2'],
    ],
  },
  {
    pid: 'SBH-26',
    deu: 'SDS-plus Bohrhammer 800 W',
    eng: 'SDS-plus rotary hammer 800 W',
    mpn: 'RH26-800',
    long: [
      '<p>Einzelschlagenergie 2,7 J, Meißelfunktion.</p>',
      '<p>Impact energy 2.7 J, chiselling function.</p>',
    ],
    features: [
      ['power', '800'],
      ['weight', '2,9', '2.9'],
    ],
  },
  {
    pid: 'HKS-190',
    deu: 'Handkreissäge 190 mm, 1400 W',
    eng: 'Circular saw 190 mm, 1400 W',
    mpn: 'CS190-14',
    features: [
      ['power', '1400'],
      ['discDiameter', '190'],
      ['weight', '3,8', '3.8'],
    ],
  },
  {
    pid: 'STS-650',
    deu: 'Stichsäge 650 W, Pendelhub',
    eng: 'Jigsaw 650 W, pendulum action',
    mpn: 'JS650',
    features: [
      ['power', '650'],
      ['weight', '2,3', '2.3'],
    ],
  },
  {
    pid: 'ES-125',
    deu: 'Exzenterschleifer 125 mm',
    eng: 'Random orbit sander 125 mm',
    mpn: 'ROS125',
    features: [
      ['power', '350'],
      ['discDiameter', '125'],
    ],
  },
  {
    pid: 'SPS-TX',
    deu: 'Spanplattenschraube Senkkopf TX, verzinkt',
    eng: 'Chipboard screw countersunk TX, zinc-plated',
    long: [
      '<p>Teilgewinde, Bohrspitze, Torx-Antrieb. Inhalt: 200 Stück.</p>',
      '<p>Partial thread, drill point, Torx drive. Contents: 200 pieces.</p>',
    ],
    features: [
      ['material', 'Stahl, verzinkt', 'Steel, zinc-plated'],
      ['drive', 'TX', 'TX'],
      ['packSize', '200'],
    ],
    variants: [
      {
        pid: 'SPS-TX-4X30',
        deu: 'Spanplattenschraube 4 x 30 mm TX20',
        eng: 'Chipboard screw 4 x 30 mm TX20',
        features: [
          ['thread', '4'],
          ['length', '30'],
        ],
      },
      {
        pid: 'SPS-TX-4X40',
        deu: 'Spanplattenschraube 4 x 40 mm TX20',
        eng: 'Chipboard screw 4 x 40 mm TX20',
        features: [
          ['thread', '4'],
          ['length', '40'],
        ],
      },
      {
        pid: 'SPS-TX-5X50',
        deu: 'Spanplattenschraube 5 x 50 mm TX25',
        eng: 'Chipboard screw 5 x 50 mm TX25',
        features: [
          ['thread', '5'],
          ['length', '50'],
        ],
      },
      {
        pid: 'SPS-TX-5X70',
        deu: 'Spanplattenschraube 5 x 70 mm TX25',
        eng: 'Chipboard screw 5 x 70 mm TX25',
        features: [
          ['thread', '5'],
          ['length', '70'],
        ],
      },
    ],
  },
  {
    pid: 'DIN933-M8-A2',
    deu: 'Sechskantschraube DIN 933 M8, Edelstahl A2',
    eng: 'Hexagon head screw DIN 933 M8, stainless A2',
    features: [
      ['thread', '8'],
      ['material', 'Edelstahl A2', 'Stainless steel A2'],
      ['packSize', '50'],
    ],
    variants: [
      {
        pid: 'DIN933-M8X20-A2',
        deu: 'Sechskantschraube DIN 933 M8 x 20, A2',
        eng: 'Hexagon head screw DIN 933 M8 x 20, A2',
        features: [['length', '20']],
      },
      {
        pid: 'DIN933-M8X30-A2',
        deu: 'Sechskantschraube DIN 933 M8 x 30, A2',
        eng: 'Hexagon head screw DIN 933 M8 x 30, A2',
        features: [['length', '30']],
      },
      {
        pid: 'DIN933-M8X40-A2',
        deu: 'Sechskantschraube DIN 933 M8 x 40, A2',
        eng: 'Hexagon head screw DIN 933 M8 x 40, A2',
        features: [['length', '40']],
      },
    ],
  },
  {
    pid: 'DUE-NY',
    deu: 'Nylondübel mit Kragen',
    eng: 'Nylon wall plug with collar',
    features: [
      ['material', 'Polyamid', 'Polyamide'],
      ['packSize', '100'],
    ],
    variants: [
      {
        pid: 'DUE-NY-6X30',
        deu: 'Nylondübel 6 x 30 mm',
        eng: 'Nylon wall plug 6 x 30 mm',
        features: [['length', '30']],
      },
      {
        pid: 'DUE-NY-8X40',
        deu: 'Nylondübel 8 x 40 mm',
        eng: 'Nylon wall plug 8 x 40 mm',
        features: [['length', '40']],
      },
      {
        pid: 'DUE-NY-10X50',
        deu: 'Nylondübel 10 x 50 mm',
        eng: 'Nylon wall plug 10 x 50 mm',
        features: [['length', '50']],
      },
    ],
  },
  {
    pid: 'DIN934-M8-A2',
    deu: 'Sechskantmutter DIN 934 M8, Edelstahl A2',
    eng: 'Hexagon nut DIN 934 M8, stainless A2',
    features: [
      ['thread', '8'],
      ['material', 'Edelstahl A2', 'Stainless steel A2'],
      ['packSize', '100'],
    ],
  },
  {
    pid: 'DIN125-M8',
    deu: 'Unterlegscheibe DIN 125 für M8, verzinkt',
    eng: 'Washer DIN 125 for M8, zinc-plated',
    features: [
      ['material', 'Stahl, verzinkt', 'Steel, zinc-plated'],
      ['packSize', '100'],
    ],
  },
  {
    pid: 'NYM-J-3X1.5',
    deu: 'Mantelleitung NYM-J 3 x 1,5 mm²',
    eng: 'Sheathed cable NYM-J 3 x 1.5 mm²',
    mpn: 'NYMJ3G15',
    long: [
      '<p>Für die feste Verlegung über, auf, im und unter Putz.</p>',
      '<p>For fixed installation on, in and under plaster.</p>',
    ],
    features: [
      ['crossSection', '1,5', '1.5'],
      ['cores', '3'],
      ['material', 'Kupfer, PVC-Mantel', 'Copper, PVC sheath'],
    ],
    variants: [
      {
        pid: 'NYM-J-3X1.5-25M',
        deu: 'NYM-J 3 x 1,5 mm², Ring 25 m',
        eng: 'NYM-J 3 x 1.5 mm², 25 m coil',
        features: [['length', '25', '25', 'm']],
      },
      {
        pid: 'NYM-J-3X1.5-50M',
        deu: 'NYM-J 3 x 1,5 mm², Ring 50 m',
        eng: 'NYM-J 3 x 1.5 mm², 50 m coil',
        features: [['length', '50', '50', 'm']],
      },
      {
        pid: 'NYM-J-3X1.5-100M',
        deu: 'NYM-J 3 x 1,5 mm², Ring 100 m',
        eng: 'NYM-J 3 x 1.5 mm², 100 m coil',
        features: [['length', '100', '100', 'm']],
      },
    ],
  },
  {
    pid: 'H07RN-F-3G2.5',
    deu: 'Gummischlauchleitung H07RN-F 3G2,5 mm²',
    eng: 'Rubber cable H07RN-F 3G2.5 mm²',
    features: [
      ['crossSection', '2,5', '2.5'],
      ['cores', '3'],
      ['protection', 'IP44'],
    ],
    variants: [
      {
        pid: 'H07RN-F-3G2.5-25M',
        deu: 'H07RN-F 3G2,5 mm², 25 m',
        eng: 'H07RN-F 3G2.5 mm², 25 m',
        features: [['length', '25', '25', 'm']],
      },
      {
        pid: 'H07RN-F-3G2.5-50M',
        deu: 'H07RN-F 3G2,5 mm², 50 m',
        eng: 'H07RN-F 3G2.5 mm², 50 m',
        features: [['length', '50', '50', 'm']],
      },
    ],
  },
  {
    pid: 'CAT6A-SFTP',
    deu: 'Patchkabel Cat. 6A S/FTP, grau',
    eng: 'Patch cable Cat. 6A S/FTP, grey',
    features: [
      ['cores', '8'],
      ['material', 'Kupfer, LSZH-Mantel', 'Copper, LSZH sheath'],
    ],
    variants: [
      {
        pid: 'CAT6A-SFTP-1M',
        deu: 'Patchkabel Cat. 6A, 1 m',
        eng: 'Patch cable Cat. 6A, 1 m',
        features: [['length', '1', '1', 'm']],
      },
      {
        pid: 'CAT6A-SFTP-2M',
        deu: 'Patchkabel Cat. 6A, 2 m',
        eng: 'Patch cable Cat. 6A, 2 m',
        features: [['length', '2', '2', 'm']],
      },
      {
        pid: 'CAT6A-SFTP-5M',
        deu: 'Patchkabel Cat. 6A, 5 m',
        eng: 'Patch cable Cat. 6A, 5 m',
        features: [['length', '5', '5', 'm']],
      },
    ],
  },
  {
    pid: 'KB-200-SW',
    deu: 'Kabelbinder 200 x 4,8 mm, schwarz',
    eng: 'Cable tie 200 x 4.8 mm, black',
    features: [
      ['length', '200'],
      ['material', 'Polyamid 6.6, UV-beständig', 'Polyamide 6.6, UV-resistant'],
      ['packSize', '100'],
    ],
  },
  {
    pid: 'VLK-3F-5M',
    deu: 'Verlängerungskabel 3-fach, 5 m',
    eng: 'Extension lead, 3 sockets, 5 m',
    long: [
      '<p>Mit Schalter und Kindersicherung. <i>Nur für trockene Räume.</i></p>',
      '<p>With switch and child protection. <i>Indoor use only.</i></p>',
    ],
    features: [
      ['length', '5', '5', 'm'],
      ['protection', 'IP20'],
      ['crossSection', '1,5', '1.5'],
    ],
  },
];

/** EAN-13 with check digit, from 12 digits. */
function ean13(base: string): string {
  const sum = [...base].reduce((s, d, i) => s + Number(d) * (i % 2 === 0 ? 1 : 3), 0);
  return base + String((10 - (sum % 10)) % 10);
}

/**
 * Fills the first-run demo workspace with a small, realistic catalogue through the
 * domain services (so the sample data obeys every rule the API enforces).
 */
export async function seedDemoCatalogue(ctx: RequestContext): Promise<{ products: number; groups: number }> {
  for (const def of Object.values(FEATURES)) {
    await defineFeature(ctx, {
      ftidref: def.ftidref,
      defaultUnit: def.unit,
      names: [
        { lang: 'deu', name: def.deu },
        { lang: 'eng', name: def.eng },
      ],
    });
  }
  let count = 0;
  const add = async (item: DemoProduct, masterProductId?: number): Promise<void> => {
    count++;
    const product = await createProduct(ctx, {
      supplierPid: item.pid,
      supplierIdRef: SUPPLIER,
      name: item.deu,
      language: 'deu',
      ean: ean13(`4006381${String(10000 + count)}`),
      manufacturerPid: item.mpn ?? null,
      masterProductId,
    });
    await setText(ctx, product.id, 'DESCRIPTIONSHORT', 'eng', item.eng);
    if (item.long) {
      await setText(ctx, product.id, 'DESCRIPTIONLONG', 'deu', item.long[0]);
      await setText(ctx, product.id, 'DESCRIPTIONLONG', 'eng', item.long[1]);
    }
    for (const [key, deu, eng, unit] of item.features ?? []) {
      await setFeature(ctx, product.id, FEATURES[key].ftidref, {
        ...(unit ? { funit: unit } : {}),
        values: [
          { lang: 'deu', value: deu },
          { lang: 'eng', value: eng ?? deu },
        ],
      });
    }
    for (const variant of item.variants ?? []) await add(variant, product.id);
  };
  for (const item of CATALOGUE) await add(item);
  return { products: count, groups: 0 };
}
