// Types of make-irregular-verbs.mjs, for the test that checks the committed table against it.
export declare function irregularVerbTable(): [string, string][];
