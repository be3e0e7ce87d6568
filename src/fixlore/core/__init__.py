"""The ground floor: the domain objects, the vocabulary, times, errors, format versions, text cleaning."""
