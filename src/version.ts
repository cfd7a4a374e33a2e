export const version = "0.1.0";

/**
 * Who is asking, on every request Assay makes (pages, robots.txt, search providers): a name, a
 * version and what it is, as the Wikimedia User-Agent policy asks. Its product token, `assay`, is
 * the name robots.txt groups are matched against.
 */
export const ASSAY_USER_AGENT = `Assay/${version} (evidence-first research tool)`;
