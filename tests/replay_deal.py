"""The deal the replay tests start from: four hands of eleven, the pile's 7C, 63 cards in the stock.

Seat 0 holds kings and a joker, so a first meld and a canasta of kings can be played from it."""

HANDS = [["9H", "9S", "KH", "KS", "KD", "5C", "7D", "AH", "AS", "JK", "4C"],
         ["QH", "QS", "QD", "6C", "6D", "8H", "8S", "10H", "10S", "2C", "4D"],
         ["JH", "JS", "JD", "5H", "5S", "7H", "7S", "AC", "AD", "KC", "4H"],
         ["9C", "9D", "6H", "6S", "8C", "8D", "10C", "10D", "QC", "JC", "4S"]]
KINGS = ["KH", "KS", "KD", "KC", "KH", "KS", "KD"]  # a natural canasta of kings
