"""Blocks in Afrika (Ventonuovo Games, 2014): the data pack, ahead of the rules engine."""
