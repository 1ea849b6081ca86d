"""The players' register (issue 49, point 5; decision 0171): federation ids, names under the
house's name rule, clubs, licences, classes; the links of venues' entrants to them."""
