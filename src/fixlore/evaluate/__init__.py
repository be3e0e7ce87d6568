"""Evaluation: how a run's conclusions compare with a world's truth.

`score.score` compares a case export with truth.yaml key by key (`fixlore score`);
`kb_truth.labelled_cases` turns truth's kb_refs into labelled queries for calibrating and
benchmarking the knowledge base (`fixlore kb calibrate`, bench/kb.py). No stage imports this
package: it sits above them, beside the pipeline.
"""
