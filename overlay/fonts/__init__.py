"""Shipped TrueType fonts (DejaVu Sans, see LICENSE), so drawing never relies on system fonts.

A package only so that setuptools' ``*.ttf`` package-data rule ships the files.
"""
