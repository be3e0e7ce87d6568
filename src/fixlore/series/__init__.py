"""A digest series: editions of one digest, the ledger of what each published, the backlog
carried from one edition to the next, special editions on chosen repos or themes.

- ``model``: the series itself (name, title, tagline, scope, pointer for agents)
- ``plan``: pure logic: which cases an edition takes, update rows, the next-edition line
- ``stage``: the pipeline stage that applies an edition's plan between link and analyse
- ``edition``: the edition's files (the digest framed by the series) and their hashes
- ``publish``: the next edition end to end, and rebuilding a published one from the ledger
The ledger lives in the store (``fixlore.store.ledger``).
"""
