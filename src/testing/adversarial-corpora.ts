/**
 * Small realistic corpora that a judge of evidence must get right (issue 42), end to end:
 * claims that must not be shown verified (a contradiction in other words, in another unit, in
 * a later correction, a retraction, a table row; a contradicting sentence that shares the
 * claim's number; a hedge; two pages of one origin; a claim only partly stated) and controls
 * that two independent sources state in other words (units, number formats, synonyms, the
 * passive, a population of another year beside them, "not the largest X, but …"). Some also
 * check gaps: a word the sources write in other words is not a gap. Fictional names, so that
 * nothing depends on what a reader knows.
 */

export type Category =
  | "contradiction"
  | "contradicting-support"
  | "hedge"
  | "one-origin"
  | "partial"
  | "control"
  | "gap"
  | "superscript";

export interface AdversarialCase {
  id: string;
  category: Category;
  question: string;
  /** File name → content. */
  documents: Record<string, string>;
  /** `verified`: a control; a finding stating it must be verified. `not-verified`: no finding may be. */
  expect: "verified" | "not-verified";
  /** The sentences that state the claim (any of them may be the finding). */
  claim: readonly string[];
  /** The sentences that contradict it: a finding stating the claim is contested, quoting one of them. */
  against?: readonly string[];
  /** Words of the question the sources write in other words: never "the sources read do not mention" them. */
  mentioned?: readonly string[];
  /** Text the report must not contain (a number an extraction would invent). */
  absent?: readonly string[];
  /** What the sources do agree on (a part of a partly stated claim): it may be verified, the claim may not. */
  common?: readonly string[];
}

const doc = (title: string, ...paragraphs: string[]): string => `# ${title}\n\n${paragraphs.join("\n\n")}\n`;

const contradictions: AdversarialCase[] = [
  {
    id: "bridge-inaugurated",
    category: "contradiction",
    question: "When did the Harbour Bridge open to traffic?",
    documents: {
      "a.md": doc(
        "The Harbour Bridge",
        "The Harbour Bridge opened to traffic in 1932. It carries eight lanes of road traffic and two railway tracks across the harbour.",
      ),
      "b.md": doc(
        "City landmarks",
        "The Harbour Bridge opened to traffic in 1932, after eight years of construction. Its arch is the widest in the region.",
      ),
      "c.md": doc(
        "A history of the Harbour Bridge",
        "Construction of the Harbour Bridge began in 1923. The bridge was inaugurated in 1929, three years before most guidebooks say.",
      ),
    },
    expect: "not-verified",
    claim: [
      "The Harbour Bridge opened to traffic in 1932.",
      "The Harbour Bridge opened to traffic in 1932, after eight years of construction.",
    ],
    against: ["The bridge was inaugurated in 1929, three years before most guidebooks say."],
  },
  {
    id: "tunnel-miles",
    category: "contradiction",
    question: "How long is the Fjell Tunnel?",
    documents: {
      "a.md": doc(
        "The Fjell Tunnel",
        "The Fjell Tunnel is 6.1 km long. It links the island of Sotra with the mainland.",
      ),
      "b.md": doc(
        "Road tunnels of the west coast",
        "The Fjell Tunnel is 6.1 km long and carries about 9,000 vehicles a day.",
      ),
      "c.md": doc(
        "Fjell Tunnel survey",
        "Engineers surveyed the Fjell Tunnel in 2019. The 2.4-mile Fjell Tunnel was found to be in good condition.",
      ),
    },
    expect: "not-verified",
    claim: [
      "The Fjell Tunnel is 6.1 km long.",
      "The Fjell Tunnel is 6.1 km long and carries about 9,000 vehicles a day.",
    ],
    against: ["The 2.4-mile Fjell Tunnel was found to be in good condition."],
  },
  {
    id: "turnout-correction",
    category: "contradiction",
    question: "What was the turnout in the Ostrava mayoral election?",
    documents: {
      "a.md": doc("Ostrava votes", "Turnout in the Ostrava mayoral election was 41%. Counting ended on Sunday night."),
      "b.md": doc("Regional results", "Turnout in the Ostrava mayoral election was 41%, officials said on Monday."),
      "c.md": doc(
        "Ostrava election results",
        "Correction: an earlier version of this article gave the turnout in the Ostrava mayoral election as 41%; it was 14%.",
      ),
    },
    expect: "not-verified",
    claim: [
      "Turnout in the Ostrava mayoral election was 41%.",
      "Turnout in the Ostrava mayoral election was 41%, officials said on Monday.",
    ],
    against: [
      "Correction: an earlier version of this article gave the turnout in the Ostrava mayoral election as 41%; it was 14%.",
    ],
  },
  {
    id: "trial-retracted",
    category: "contradiction",
    question: "Did Veltrasine reduce migraine frequency?",
    documents: {
      "a.md": doc("Veltrasine trial", "Veltrasine reduced migraine frequency by 40 percent in a 2018 trial."),
      "b.md": doc(
        "Migraine treatments",
        "In a 2018 trial, Veltrasine reduced migraine frequency by 40 percent. The drug is taken once a day.",
      ),
      "c.md": doc(
        "Retraction notice",
        "The 2018 trial reporting that Veltrasine reduced migraine frequency by 40 percent has been retracted by the journal because of data errors.",
      ),
    },
    expect: "not-verified",
    claim: [
      "Veltrasine reduced migraine frequency by 40 percent in a 2018 trial.",
      "In a 2018 trial, Veltrasine reduced migraine frequency by 40 percent.",
    ],
    against: [
      "The 2018 trial reporting that Veltrasine reduced migraine frequency by 40 percent has been retracted by the journal because of data errors.",
    ],
  },
  {
    id: "plant-table-row",
    category: "contradiction",
    question: "How much electricity did the Kessel plant produce in 2019?",
    documents: {
      "a.md": doc(
        "Kessel power station",
        "The Kessel plant produced 4.1 TWh of electricity in 2019. It burns wood pellets.",
      ),
      "b.md": doc(
        "Energy in the valley",
        "In 2019 the Kessel plant produced 4.1 TWh of electricity, enough for 900,000 homes.",
      ),
      "c.md": doc(
        "Plant output by year",
        "| Plant | Year | Output (TWh) |\n| --- | --- | --- |\n| Kessel | 2018 | 3.9 |\n| Kessel | 2019 | 3.2 |\n| Kessel | 2020 | 3.5 |",
      ),
    },
    expect: "not-verified",
    claim: [
      "The Kessel plant produced 4.1 TWh of electricity in 2019.",
      "In 2019 the Kessel plant produced 4.1 TWh of electricity, enough for 900,000 homes.",
    ],
    against: ["Kessel | 2019 | 3.2"],
  },
  {
    id: "lighthouse-date",
    category: "contradiction",
    question: "When was the Orvik lighthouse first lit?",
    documents: {
      "a.md": doc(
        "Orvik lighthouse",
        "The Orvik lighthouse was first lit on 12 March 1874. Its light can be seen for 18 nautical miles.",
      ),
      "b.md": doc("Coastal lights", "The Orvik lighthouse was first lit on March 12, 1874, by keeper Anders Holm."),
      "c.md": doc(
        "Lighthouse records",
        "Harbour records kept in the county archive list every light on the coast. The Orvik lighthouse was first lit on 3 October 1876.",
      ),
    },
    expect: "not-verified",
    claim: [
      "The Orvik lighthouse was first lit on 12 March 1874.",
      "The Orvik lighthouse was first lit on March 12, 1874, by keeper Anders Holm.",
    ],
    against: ["The Orvik lighthouse was first lit on 3 October 1876."],
  },
  {
    id: "shipyard-count",
    category: "contradiction",
    question: "How many people does the Delmar shipyard employ?",
    documents: {
      "a.md": doc("Delmar shipyard", "The Delmar shipyard employs 2,400 people. It builds ferries and fishing boats."),
      "b.md": doc("Local economy", "The Delmar shipyard employs 2,400 people, more than any other firm in the town."),
      "c.md": doc("Shipyard cuts", "After last year's cuts, the Delmar shipyard employs 1,100 people."),
    },
    expect: "not-verified",
    claim: [
      "The Delmar shipyard employs 2,400 people.",
      "The Delmar shipyard employs 2,400 people, more than any other firm in the town.",
    ],
    against: ["After last year's cuts, the Delmar shipyard employs 1,100 people."],
  },
  {
    id: "library-cost",
    category: "contradiction",
    question: "How much did the Alder Street library cost?",
    documents: {
      "a.md": doc("Alder Street library", "The Alder Street library cost $12 million to build. It holds 80,000 books."),
      "b.md": doc("New public buildings", "The Alder Street library cost $12 million to build and opened in 2015."),
      "c.md": doc("City audit", "The city audit found that the Alder Street library cost $19 million to build."),
    },
    expect: "not-verified",
    claim: [
      "The Alder Street library cost $12 million to build.",
      "The Alder Street library cost $12 million to build and opened in 2015.",
    ],
    against: ["The city audit found that the Alder Street library cost $19 million to build."],
  },
  {
    id: "bell-myth",
    category: "contradiction",
    question: "When was the bell of Saint Olaf's church cast?",
    documents: {
      "a.md": doc(
        "Saint Olaf's church",
        "The bell of Saint Olaf's church was cast in 1620. It hangs in the west tower.",
      ),
      "b.md": doc("Church history", "The bell of Saint Olaf's church was cast in 1620 in Bergen."),
      "c.md": doc(
        "Local legends",
        "The story that the bell of Saint Olaf's church was cast in 1620 is a myth; records show that it was cast in 1688.",
      ),
    },
    expect: "not-verified",
    claim: [
      "The bell of Saint Olaf's church was cast in 1620.",
      "The bell of Saint Olaf's church was cast in 1620 in Bergen.",
    ],
    against: [
      "The story that the bell of Saint Olaf's church was cast in 1620 is a myth; records show that it was cast in 1688.",
    ],
  },
  {
    id: "wheat-fell",
    category: "contradiction",
    question: "How did wheat prices in Kestria change in 2023?",
    documents: {
      "a.md": doc("Kestria harvest", "Wheat prices in Kestria rose in 2023. Farmers planted less barley."),
      "b.md": doc("Grain markets", "In 2023, wheat prices in Kestria rose sharply, traders said."),
      "c.md": doc(
        "Kestria statistics office",
        "Wheat prices in Kestria fell in 2023, according to the national statistics office.",
      ),
    },
    expect: "not-verified",
    claim: ["Wheat prices in Kestria rose in 2023.", "In 2023, wheat prices in Kestria rose sharply, traders said."],
    against: ["Wheat prices in Kestria fell in 2023, according to the national statistics office."],
  },
  {
    id: "bell-pounds",
    category: "contradiction",
    question: "How heavy is the Varne bell?",
    documents: {
      "a.md": doc("The Varne bell", "The Varne bell weighs 2.5 tonnes. It was cast in 1702."),
      "b.md": doc("Bells of the north", "The Varne bell weighs 2.5 tonnes and rings every hour."),
      "c.md": doc("Bell foundry archive", "The foundry's ledger shows that the Varne bell weighs 3,900 pounds."),
    },
    expect: "not-verified",
    claim: ["The Varne bell weighs 2.5 tonnes.", "The Varne bell weighs 2.5 tonnes and rings every hour."],
    against: ["The foundry's ledger shows that the Varne bell weighs 3,900 pounds."],
  },
  {
    id: "wind-share",
    category: "contradiction",
    question: "What share of its electricity does Norland get from wind?",
    documents: {
      "a.md": doc(
        "Norland energy",
        "Norland gets 23% of its electricity from wind. Hydropower supplies most of the rest.",
      ),
      "b.md": doc("Wind power in Europe", "Norland gets 23 percent of its electricity from wind."),
      "c.md": doc("Grid operator report", "Norland gets 31% of its electricity from wind, the grid operator reported."),
    },
    expect: "not-verified",
    claim: ["Norland gets 23% of its electricity from wind.", "Norland gets 23 percent of its electricity from wind."],
    against: ["Norland gets 31% of its electricity from wind, the grid operator reported."],
  },
  {
    id: "mountain-feet",
    category: "contradiction",
    question: "How high is Mount Halden?",
    documents: {
      "a.md": doc("Mount Halden", "Mount Halden is 2,469 metres high. Its summit is snow-covered all year."),
      "b.md": doc("Peaks of the range", "Mount Halden is 2,469 m high and was first climbed in 1861."),
      "c.md": doc("Survey of 1998", "A new survey found that Mount Halden is 7,710 feet high."),
    },
    expect: "not-verified",
    claim: ["Mount Halden is 2,469 metres high.", "Mount Halden is 2,469 m high and was first climbed in 1861."],
    against: ["A new survey found that Mount Halden is 7,710 feet high."],
  },
  {
    id: "founded-not-but",
    category: "contradiction",
    question: "When was Brenner & Sons founded?",
    documents: {
      "a.md": doc("Brenner & Sons", "Brenner & Sons was founded in 1887 in Hamburg. It traded coffee and tea."),
      "b.md": doc("Hamburg trading houses", "Brenner & Sons was established in Hamburg in 1887."),
      "c.md": doc(
        "Company registers",
        "Brenner & Sons was not founded in 1887, as its own history claims, but in 1893.",
      ),
    },
    expect: "not-verified",
    claim: ["Brenner & Sons was founded in 1887 in Hamburg.", "Brenner & Sons was established in Hamburg in 1887."],
    against: ["Brenner & Sons was not founded in 1887, as its own history claims, but in 1893."],
  },
  {
    id: "institute-set-up",
    category: "contradiction",
    question: "When was the Kellerman Institute founded?",
    documents: {
      "a.md": doc("Kellerman Institute", "The Kellerman Institute was founded in 1952. It studies glaciers."),
      "b.md": doc("Research centres", "The Kellerman Institute was founded in 1952 by the physicist Ada Kellerman."),
      "c.md": doc("Institute archive", "The Kellerman Institute was set up in 1949, its archive shows."),
    },
    expect: "not-verified",
    claim: [
      "The Kellerman Institute was founded in 1952.",
      "The Kellerman Institute was founded in 1952 by the physicist Ada Kellerman.",
    ],
    against: ["The Kellerman Institute was set up in 1949, its archive shows."],
  },
  {
    id: "park-acres",
    category: "contradiction",
    question: "How large is Tamsin Park?",
    documents: {
      "a.md": doc("Tamsin Park", "Tamsin Park covers 120 hectares. It was laid out in 1890."),
      "b.md": doc("Green spaces", "Tamsin Park covers 120 hectares of woodland and meadow."),
      "c.md": doc("Park management plan", "The management plan notes that Tamsin Park covers 180 acres."),
    },
    expect: "not-verified",
    claim: ["Tamsin Park covers 120 hectares.", "Tamsin Park covers 120 hectares of woodland and meadow."],
    against: ["The management plan notes that Tamsin Park covers 180 acres."],
  },
  {
    id: "population-erratum",
    category: "contradiction",
    question: "What is the population of Tarn?",
    documents: {
      "a.md": doc("Tarn", "Tarn has a population of 12,400. It lies on the river Esk."),
      "b.md": doc("Towns of the Esk valley", "Tarn has a population of 12,400 and a weekly market."),
      "c.md": doc(
        "Gazetteer, second edition",
        "Erratum: the first edition misstated the population of Tarn as 12,400; the correct figure is 21,400.",
      ),
    },
    expect: "not-verified",
    claim: ["Tarn has a population of 12,400.", "Tarn has a population of 12,400 and a weekly market."],
    against: ["Erratum: the first edition misstated the population of Tarn as 12,400; the correct figure is 21,400."],
  },
  {
    id: "population-decreased",
    category: "contradiction",
    question: "How did the population of Varn change between 2010 and 2020?",
    documents: {
      "a.md": doc("Varn", "The population of Varn increased between 2010 and 2020. New housing was built by the lake."),
      "b.md": doc("Lake towns", "Between 2010 and 2020 the population of Varn increased, census figures show."),
      "c.md": doc("Census summary", "The population of Varn decreased between 2010 and 2020, the census office said."),
    },
    expect: "not-verified",
    claim: [
      "The population of Varn increased between 2010 and 2020.",
      "Between 2010 and 2020 the population of Varn increased, census figures show.",
    ],
    against: ["The population of Varn decreased between 2010 and 2020, the census office said."],
  },
  {
    id: "fare-euros",
    category: "contradiction",
    question: "How much does a single ticket on the Lund tram cost?",
    documents: {
      "a.md": doc("Lund tram", "A single ticket on the Lund tram costs €2.40. Children travel free."),
      "b.md": doc("Getting around Lund", "A single ticket on the Lund tram costs 2.40 euros."),
      "c.md": doc("Fare changes", "Since January, a single ticket on the Lund tram costs €2.90."),
    },
    expect: "not-verified",
    claim: ["A single ticket on the Lund tram costs €2.40.", "A single ticket on the Lund tram costs 2.40 euros."],
    against: ["Since January, a single ticket on the Lund tram costs €2.90."],
  },
];

const contradictingSupport: AdversarialCase[] = [
  {
    id: "range-never-reached",
    category: "contradicting-support",
    question: "What range does the Volta EV have?",
    documents: {
      "a.md": doc("Volta EV", "The Volta EV has a range of 500 km on a single charge. It went on sale in 2021."),
      "b.md": doc(
        "Volta EV road test",
        "We drove the Volta EV for a month. Its advertised range of 500 km was never reached in our tests; it managed 310 km.",
      ),
    },
    expect: "not-verified",
    claim: ["The Volta EV has a range of 500 km on a single charge."],
    against: ["Its advertised range of 500 km was never reached in our tests; it managed 310 km."],
  },
  {
    id: "dam-expected",
    category: "contradicting-support",
    question: "When did the Marrow Dam open?",
    documents: {
      "a.md": doc("Marrow Dam", "The Marrow Dam opened in 1932. Its reservoir supplies the city."),
      "b.md": doc("Marrow Dam history", "The Marrow Dam was expected to open in 1932 but opened in 1934."),
    },
    expect: "not-verified",
    claim: ["The Marrow Dam opened in 1932."],
    against: ["The Marrow Dam was expected to open in 1932 but opened in 1934."],
  },
  {
    id: "mine-forecast",
    category: "contradicting-support",
    question: "How much copper did the Korva mine produce in 2020?",
    documents: {
      "a.md": doc("Korva mine", "The Korva mine produced 2 million tonnes of copper in 2020. It employs 3,000 people."),
      "b.md": doc(
        "Mining review 2020",
        "Analysts had forecast that the Korva mine would produce 2 million tonnes of copper in 2020, but it produced 1.4 million tonnes.",
      ),
    },
    expect: "not-verified",
    claim: ["The Korva mine produced 2 million tonnes of copper in 2020."],
    against: [
      "Analysts had forecast that the Korva mine would produce 2 million tonnes of copper in 2020, but it produced 1.4 million tonnes.",
    ],
  },
];

const hedges: AdversarialCase[] = [
  {
    id: "studies-suggest",
    category: "hedge",
    question: "Does drinking coffee lower the risk of heart failure?",
    documents: {
      "a.md": doc("Coffee and health", "Drinking coffee lowers the risk of heart failure. Most adults drink it daily."),
      "b.md": doc("Cardiology notes", "Some studies suggest that drinking coffee lowers the risk of heart failure."),
    },
    expect: "not-verified",
    claim: ["Drinking coffee lowers the risk of heart failure."],
  },
  {
    id: "rumours-persist",
    category: "hedge",
    question: "Is Holt Motors moving its headquarters to Lyon?",
    documents: {
      "a.md": doc("Holt Motors", "Holt Motors is moving its headquarters to Lyon. The company makes delivery vans."),
      "b.md": doc("Industry gossip", "Rumours persist that Holt Motors is moving its headquarters to Lyon."),
    },
    expect: "not-verified",
    claim: ["Holt Motors is moving its headquarters to Lyon."],
  },
  {
    id: "critics-claim",
    category: "hedge",
    question: "Does the Meridian app sell its users' location data?",
    documents: {
      "a.md": doc("Meridian app", "The Meridian app sells its users' location data. It has ten million users."),
      "b.md": doc("Privacy debate", "Critics claim that the Meridian app sells its users' location data."),
    },
    expect: "not-verified",
    claim: ["The Meridian app sells its users' location data."],
  },
  {
    id: "expected-to",
    category: "hedge",
    question: "How many passengers does the Calder line carry a day?",
    documents: {
      "a.md": doc("Calder line", "The Calder line carries 40,000 passengers a day. It opened in 2019."),
      "b.md": doc("Transport plan", "The Calder line is expected to carry 40,000 passengers a day."),
    },
    expect: "not-verified",
    claim: ["The Calder line carries 40,000 passengers a day."],
  },
  {
    id: "believed-to",
    category: "hedge",
    question: "Who wrote the Ravensworth manuscript?",
    documents: {
      "a.md": doc(
        "The Ravensworth manuscript",
        "The Ravensworth manuscript was written by Thomas Abney. It is kept in Durham.",
      ),
      "b.md": doc(
        "Medieval manuscripts",
        "The Ravensworth manuscript is believed to have been written by Thomas Abney.",
      ),
    },
    expect: "not-verified",
    claim: ["The Ravensworth manuscript was written by Thomas Abney."],
  },
  {
    id: "forecast-as-fact",
    category: "hedge",
    question: "How much power does the Brisa solar park produce?",
    documents: {
      "a.md": doc("Brisa solar park", "The Brisa solar park produces 300 MW. It covers a former airfield."),
      "b.md": doc("Solar projects", "The Brisa solar park will produce 300 MW when it is completed in 2027."),
    },
    expect: "not-verified",
    claim: ["The Brisa solar park produces 300 MW."],
  },
  {
    id: "apparently",
    category: "hedge",
    question: "Did the Soria bridge collapse in 1913?",
    documents: {
      "a.md": doc("Soria bridge", "The Soria bridge collapsed in 1913. A ferry replaced it for ten years."),
      "b.md": doc("River crossings", "The Soria bridge apparently collapsed in 1913, though no record of it survives."),
    },
    expect: "not-verified",
    claim: ["The Soria bridge collapsed in 1913."],
  },
];

const WIRE =
  "The Brannock Steel works in Harlow will close in March, cutting 900 jobs. The company said demand for its steel plate had fallen for three years. Unions called the decision a betrayal of the town. The works opened in 1958 and once employed 4,000 people.";

const oneOrigin: AdversarialCase[] = [
  {
    id: "syndicated-copy",
    category: "one-origin",
    question: "When did the Brannock Steel works open?",
    documents: {
      "herald.md": doc("Brannock Steel to close Harlow works", WIRE),
      "courier.md": doc(
        "Steel works closure",
        `Published by the Courier. ${WIRE} Sign up for our newsletter to get the day's news.`,
      ),
    },
    expect: "not-verified",
    claim: ["The works opened in 1958 and once employed 4,000 people."],
  },
  {
    id: "wire-story",
    category: "one-origin",
    question: "How much did Vantor Pharma pay for Ellis Labs?",
    documents: {
      "a.md": doc(
        "Vantor buys Ellis Labs",
        "Vantor Pharma paid $2.1 billion for Ellis Labs, according to Reuters. The deal closed on Friday.",
      ),
      "b.md": doc(
        "Drug makers merge",
        "According to Reuters, Vantor Pharma paid $2.1 billion for Ellis Labs, a maker of hospital tests.",
      ),
    },
    expect: "not-verified",
    claim: [
      "Vantor Pharma paid $2.1 billion for Ellis Labs, according to Reuters.",
      "According to Reuters, Vantor Pharma paid $2.1 billion for Ellis Labs, a maker of hospital tests.",
    ],
  },
  {
    id: "press-release-rewrite",
    category: "one-origin",
    question: "How much aluminium does the Karmoy smelter produce a year?",
    documents: {
      "release.md": doc(
        "Press release: Nordal opens Karmoy smelter",
        "Nordal Metals today opened its new smelter at Karmoy. The Karmoy smelter produces 75,000 tonnes of aluminium a year. It runs entirely on hydropower from the Sauda plants. The investment secures 300 jobs in the region for the next decade.",
      ),
      "news.md": doc(
        "Nordal opens new smelter",
        "Nordal Metals opened its new smelter at Karmoy on Tuesday. The Karmoy smelter produces 75,000 tonnes of aluminium a year. It runs entirely on hydropower from the Sauda plants. The investment secures 300 jobs in the region for the next decade, the company said.",
      ),
    },
    expect: "not-verified",
    claim: ["The Karmoy smelter produces 75,000 tonnes of aluminium a year."],
  },
  {
    id: "as-the-gazette-reported",
    category: "one-origin",
    question: "When did the Dunmore council approve the bypass?",
    documents: {
      "gazette.md": doc(
        "The Dunmore Gazette",
        "The Dunmore council approved the new bypass in May 2022. Work will start next spring.",
      ),
      "weekly.md": doc(
        "Regional weekly",
        "The Dunmore council approved the new bypass in May 2022, as the Gazette reported at the time.",
      ),
    },
    expect: "not-verified",
    claim: [
      "The Dunmore council approved the new bypass in May 2022.",
      "The Dunmore council approved the new bypass in May 2022, as the Gazette reported at the time.",
    ],
  },
  {
    id: "encyclopedia-mirror",
    category: "one-origin",
    question: "When was the Selby viaduct completed?",
    documents: {
      "encyclopedia.md": doc(
        "Selby viaduct",
        "The Selby viaduct is a railway bridge over the river Ouse. The Selby viaduct was completed in 1871. It has 21 arches of local sandstone. The line it carries closed in 1964 and the viaduct is now a footpath.",
      ),
      "mirror.md": doc(
        "Selby viaduct (mirror)",
        "This page mirrors an encyclopedia article. The Selby viaduct is a railway bridge over the river Ouse. The Selby viaduct was completed in 1871. It has 21 arches of local sandstone. The line it carries closed in 1964 and the viaduct is now a footpath.",
      ),
    },
    expect: "not-verified",
    claim: ["The Selby viaduct was completed in 1871."],
  },
  {
    id: "same-report-cited",
    category: "one-origin",
    question: "How many birds winter at Lake Ossan?",
    documents: {
      "a.md": doc(
        "Lake Ossan",
        "About 40,000 birds winter at Lake Ossan, according to the Halvorsen Report. The lake is shallow and rarely freezes.",
      ),
      "b.md": doc(
        "Wetlands of the north",
        "According to the Halvorsen Report, about 40,000 birds winter at Lake Ossan each year.",
      ),
    },
    expect: "not-verified",
    claim: [
      "About 40,000 birds winter at Lake Ossan, according to the Halvorsen Report.",
      "According to the Halvorsen Report, about 40,000 birds winter at Lake Ossan each year.",
    ],
  },
  {
    id: "chronicle-quoted",
    category: "one-origin",
    question: "When did the Kessel ferry stop running?",
    documents: {
      "chronicle.md": doc(
        "The Kessel Chronicle",
        "The Kessel ferry stopped running in 1987. Its last captain was Ola Brekke.",
      ),
      "history.md": doc(
        "Ferries of the fjord",
        "As the Chronicle wrote at the time, the Kessel ferry stopped running in 1987.",
      ),
    },
    expect: "not-verified",
    claim: [
      "The Kessel ferry stopped running in 1987.",
      "As the Chronicle wrote at the time, the Kessel ferry stopped running in 1987.",
    ],
  },
];

const partial: AdversarialCase[] = [
  {
    id: "museum-rebuilt",
    category: "partial",
    question: "When did the Orvik museum open?",
    documents: {
      "a.md": doc("Orvik museum", "The Orvik museum opened in 1904 and was rebuilt after a fire."),
      "b.md": doc(
        "Museums of the coast",
        "The Orvik museum opened in 1904. Its collection covers fishing and whaling.",
      ),
    },
    expect: "not-verified",
    claim: ["The Orvik museum opened in 1904 and was rebuilt after a fire."],
    common: ["The Orvik museum opened in 1904."],
  },
  {
    id: "born-died",
    category: "partial",
    question: "Where was Elin Marsh born?",
    documents: {
      "a.md": doc("Elin Marsh", "Elin Marsh was born in Leeds in 1950 and died in Porto in 2010."),
      "b.md": doc("Painters of the north", "Elin Marsh was born in Leeds in 1950. She painted harbours."),
    },
    expect: "not-verified",
    claim: ["Elin Marsh was born in Leeds in 1950 and died in Porto in 2010."],
    common: ["Elin Marsh was born in Leeds in 1950."],
  },
  {
    id: "satellite-attempts",
    category: "partial",
    question: "When was the Nova-3 satellite launched?",
    documents: {
      "a.md": doc("Nova-3", "The Nova-3 satellite was launched in 2014 and reached orbit after two attempts."),
      "b.md": doc("Small satellites", "The Nova-3 satellite was launched in 2014 from Kourou."),
    },
    expect: "not-verified",
    claim: ["The Nova-3 satellite was launched in 2014 and reached orbit after two attempts."],
    common: ["The Nova-3 satellite was launched in 2014 from Kourou."],
  },
  {
    id: "bridge-railway",
    category: "partial",
    question: "How long is the Ilsen bridge?",
    documents: {
      "a.md": doc("Ilsen bridge", "The Ilsen bridge is 1.2 km long and carries a railway line."),
      "b.md": doc("Bridges of the delta", "The Ilsen bridge is 1.2 km long. It was painted green in 2001."),
    },
    expect: "not-verified",
    claim: ["The Ilsen bridge is 1.2 km long and carries a railway line."],
    common: ["The Ilsen bridge is 1.2 km long."],
  },
  {
    id: "prize-amount",
    category: "partial",
    question: "How much is the Kaspar Prize worth?",
    documents: {
      "a.md": doc(
        "Kaspar Prize",
        "The Kaspar Prize is worth €50,000 and is awarded every two years by the Lund Academy.",
      ),
      "b.md": doc("Science prizes", "The Kaspar Prize is awarded every two years by the Lund Academy."),
    },
    expect: "not-verified",
    claim: ["The Kaspar Prize is worth €50,000 and is awarded every two years by the Lund Academy."],
    common: ["The Kaspar Prize is awarded every two years by the Lund Academy."],
  },
  {
    id: "height-and-year",
    category: "partial",
    question: "How tall is the Miro tower?",
    documents: {
      "a.md": doc("Miro tower", "The Miro tower is 212 metres tall and was completed in 1974."),
      "b.md": doc("Tall buildings", "The Miro tower is 212 metres tall. It has 58 floors."),
    },
    expect: "not-verified",
    claim: ["The Miro tower is 212 metres tall and was completed in 1974."],
    common: ["The Miro tower is 212 metres tall."],
  },
];

/** A control: two independent documents state `first` and `second`, each with a sentence of its own besides. */
const control = (
  id: string,
  question: string,
  first: string,
  second: string,
  extra: Record<string, string> = {},
): AdversarialCase => ({
  id,
  category: "control",
  question,
  documents: {
    "a.md": doc("Notes on the topic", first, "The archive holds letters and photographs from the period."),
    "b.md": doc("A second account", `Local historians have written about this. ${second}`),
    ...extra,
  },
  expect: "verified",
  claim: [first, second],
});

const controls: AdversarialCase[] = [
  control(
    "miles-km",
    "How long is the Fjell Tunnel?",
    "The Fjell Tunnel is 4.2 km long.",
    "The Fjell Tunnel is 2.6 miles long.",
  ),
  control(
    "separator",
    "How many residents does Hesby have?",
    "Hesby has 2150 residents.",
    "Hesby has 2,150 residents.",
  ),
  control(
    "population-other-year",
    "What was the population of Springfield in 2010?",
    "In 2010 Springfield had a population of 30,720.",
    "Springfield had 30,720 residents in 2010.",
    { "c.md": doc("Springfield today", "By 2020 the population of Springfield had grown to 32,100.") },
  ),
  control(
    "not-the-largest",
    "Which is the oldest city in the province?",
    "Kingston is the oldest city in the province.",
    "Kingston is not the largest city in the province, but it is the oldest.",
  ),
  control(
    "established",
    "When was the Kellerman Institute founded?",
    "The Kellerman Institute was founded in 1952.",
    "The Kellerman Institute was established in 1952.",
  ),
  control(
    "passive",
    "Who designed the Lenoir Building?",
    "Marie Dufour designed the Lenoir Building.",
    "The Lenoir Building was designed by Marie Dufour.",
  ),
  control(
    "date-formats",
    "When was the Orvik lighthouse first lit?",
    "The Orvik lighthouse was first lit on 12 March 1874.",
    "The Orvik lighthouse was first lit on March 12, 1874.",
  ),
  control(
    "ceo",
    "Who is the CEO of Corvane?",
    "Lena Hart is the CEO of Corvane.",
    "Lena Hart is the chief executive officer of Corvane.",
  ),
  control(
    "residents-people",
    "What was the population of Lake Orm in 2021?",
    "Lake Orm had a population of 4,320 in 2021.",
    "In 2021, Lake Orm had 4,320 inhabitants.",
  ),
  control(
    "percent-words",
    "What share of its electricity does Norland get from wind?",
    "Norland gets 23% of its electricity from wind.",
    "Norland gets 23 per cent of its electricity from wind.",
  ),
  control(
    "money-words",
    "How much did the Alder Street library cost?",
    "The Alder Street library cost $12 million.",
    "The Alder Street library cost 12 million dollars.",
  ),
  control(
    "bought-acquired",
    "Who acquired the Brandt brewery?",
    "Tessaro acquired the Brandt brewery in 2016.",
    "Tessaro bought the Brandt brewery in 2016.",
  ),
  control(
    "feet-metres",
    "How high is Mount Halden?",
    "Mount Halden is 2,469 metres high.",
    "Mount Halden is 8,100 feet high.",
  ),
  control(
    "pounds-tonnes",
    "How heavy is the Varne bell?",
    "The Varne bell weighs 2.5 tonnes.",
    "The Varne bell weighs 5,512 pounds.",
  ),
  control(
    "date-in-year",
    "When did the Orvik museum open?",
    "The Orvik museum opened in 1904.",
    "The Orvik museum opened its doors on 4 July 1904.",
  ),
  control(
    "fahrenheit",
    "What is the record temperature in Haldor?",
    "The record temperature in Haldor is 41.2 °C.",
    "The record temperature in Haldor is 106.2 °F.",
  ),
  control(
    "mph",
    "How fast is the Velox train?",
    "The Velox train reaches 320 km/h.",
    "The Velox train reaches 199 mph.",
  ),
  control(
    "word-order",
    "When did Orsa begin selling the first solid-state battery?",
    "In 2031 Orsa began selling the first solid-state battery.",
    "Orsa began selling the first solid-state battery in 2031.",
  ),
  control(
    "billion-litres",
    "How much water does the Grenna reservoir hold?",
    "The Grenna reservoir holds 1.2 billion litres.",
    "The Grenna reservoir holds 1,200,000,000 litres.",
  ),
  control(
    "started-began",
    "When did construction of the Solvik dam start?",
    "Construction of the Solvik dam started in 1961.",
    "Construction of the Solvik dam began in 1961.",
  ),
  control(
    "situated",
    "Where is the Hessel observatory?",
    "The Hessel observatory is located in Tromsdal.",
    "The Hessel observatory is situated in Tromsdal.",
  ),
  control(
    "clause-more",
    "When did Ines Varga win the Kestler Medal?",
    "Ines Varga won the Kestler Medal in 2009.",
    "In 2009 Ines Varga won the Kestler Medal for her work on glaciers.",
  ),
  control(
    "measures",
    "How long is the Ilsen bridge?",
    "The Ilsen bridge is 1.2 km long.",
    "The Ilsen bridge is 1,200 metres long.",
  ),
  control("square-miles", "How large is Lake Vell?", "Lake Vell covers 52 km².", "Lake Vell covers 20.1 square miles."),
  control(
    "word-number",
    "How long did the Calder line take to build?",
    "The Calder line took six years to build.",
    "The Calder line took 6 years to build.",
  ),
  control(
    "capital",
    "What is the capital of Morland?",
    "Vesta is the capital of Morland.",
    "The capital of Morland is Vesta.",
  ),
  control(
    "chief-executive",
    "Who runs Halvik Energy?",
    "Tomas Berg is the chief executive of Halvik Energy.",
    "Tomas Berg is the CEO of Halvik Energy.",
  ),
  control(
    "pronoun-subject",
    "When was the Arden lock built?",
    "The Arden lock was built in 1795.",
    "The Arden lock lies east of the village. It was built in 1795.",
  ),
  control(
    "kilograms",
    "How heavy is the Ormen anchor?",
    "The Ormen anchor weighs 1,500 kg.",
    "The Ormen anchor weighs 1.5 tonnes.",
  ),
  control(
    "percent-of",
    "What share of Vella's budget goes to schools?",
    "Vella spends 31% of its budget on schools.",
    "Vella spends 31 percent of its budget on schools.",
  ),
  control(
    "gigawatt-hours",
    "How much electricity did the Sauda plants produce in 2022?",
    "The Sauda plants produced 1.8 TWh of electricity in 2022.",
    "In 2022 the Sauda plants produced 1,800 GWh of electricity.",
  ),
  control(
    "negated-other",
    "Who founded the Brisk bakery?",
    "Anna Holm founded the Brisk bakery in 1931.",
    "The Brisk bakery was not founded by the Lund family; Anna Holm founded the Brisk bakery in 1931.",
  ),
  control(
    "firm-company",
    "When was Halberg & Co founded?",
    "Halberg & Co was founded in 1921.",
    "Halberg & Co was established in 1921 as a family firm.",
  ),
];

const gaps: AdversarialCase[] = [
  {
    id: "rainfall-precipitation",
    category: "gap",
    question: "What is the annual rainfall in Bergen?",
    documents: {
      "a.md": doc(
        "Bergen climate",
        "Annual precipitation in Bergen is about 2,250 mm. It falls on more than 200 days a year.",
      ),
    },
    expect: "not-verified",
    claim: ["Annual precipitation in Bergen is about 2,250 mm."],
    mentioned: ["rainfall"],
  },
  {
    id: "ceo-chief-executive",
    category: "gap",
    question: "Who is the CEO of Corvane?",
    documents: { "a.md": doc("Corvane", "Corvane's chief executive is Lena Hart. The firm makes sensors.") },
    expect: "not-verified",
    claim: ["Corvane's chief executive is Lena Hart."],
    mentioned: ["CEO"],
  },
  {
    id: "founded-established",
    category: "gap",
    question: "When was the Kellerman Institute founded?",
    documents: {
      "a.md": doc("Kellerman Institute", "The Kellerman Institute was established in 1952. It studies glaciers."),
    },
    expect: "not-verified",
    claim: ["The Kellerman Institute was established in 1952."],
    mentioned: ["founded"],
  },
  {
    id: "residents-population",
    category: "gap",
    question: "How many residents does Hesby have?",
    documents: { "a.md": doc("Hesby", "Hesby has a population of 2,150. It has a school and a church.") },
    expect: "not-verified",
    claim: ["Hesby has a population of 2,150."],
    mentioned: ["residents"],
  },
];

const superscripts: AdversarialCase[] = [
  {
    id: "html-cube",
    category: "superscript",
    question: "What is the volume of the Varden block?",
    documents: {
      "a.html":
        "<!doctype html><html><head><title>The Varden block</title></head><body><main><h1>The Varden block</h1><p>The Varden block is a cube of granite with sides of 48 cm. Its volume is 48<sup>3</sup> cubic centimetres, about 110 litres.</p><p>It was quarried in 1911 and stands in the town square.</p></main></body></html>",
    },
    expect: "not-verified",
    claim: ["Its volume is 48^3 cubic centimetres, about 110 litres."],
    absent: ["483"],
  },
  {
    id: "html-power-of-ten",
    category: "superscript",
    question: "How many records does the Gorm archive hold?",
    documents: {
      "a.html":
        "<!doctype html><html><head><title>The Gorm archive</title></head><body><main><h1>The Gorm archive</h1><p>The Gorm archive holds about 10<sup>9</sup> records of shipping movements.</p><p>It was digitised between 2012 and 2019 by volunteers in Stavanger.</p></main></body></html>",
    },
    expect: "not-verified",
    claim: ["The Gorm archive holds about 10^9 records of shipping movements."],
    absent: ["109 records"],
  },
];

export const ADVERSARIAL_CASES: readonly AdversarialCase[] = [
  ...contradictions,
  ...contradictingSupport,
  ...hedges,
  ...oneOrigin,
  ...partial,
  ...controls,
  ...gaps,
  ...superscripts,
];
