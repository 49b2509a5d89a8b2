// The runs `npm start` makes (scripts/import-samples.js), in its order: a built-in pipeline, then
// its sample inputs, named from the project's folder. The tests load the samples as it does.
export const SAMPLE_RUNS = [
  ['generic', 'samples/generic.csv', 'samples/generic.json'],
  ['address-book-csv', 'samples/address-book.csv', 'samples/address-book-legacy.csv'],
  ['mail-client-csv', 'samples/mail-client.csv'],
  ['worknet-connections', 'samples/worknet-connections.csv'],
  ['marketing-crm-csv', 'samples/marketing-crm.csv'],
  ['sales-crm-csv', 'samples/sales-crm-report.csv', 'samples/sales-crm-dataloader.csv'],
  ['plain-list', 'samples/plain-list-eu.csv'],
  ['vcard', 'samples/icloud.vcf'],
  ['generic', 'samples/people.xlsx'],
];
