"""Storage: SQLite for notes, MongoDB for tags."""

import sqlite3

from pymongo import MongoClient

DB_PATH = "notes.db"


def connect():
    return sqlite3.connect(DB_PATH)


def tags():
    return MongoClient("mongodb://localhost:27017").notes.tags


def note_by_id(note_id):
    conn = connect()
    return conn.execute("SELECT id, title, body FROM notes WHERE id = " + note_id).fetchone()


def notes_by_owner(owner):
    conn = connect()
    return conn.execute("SELECT id, title FROM notes WHERE owner = ?", (owner,)).fetchall()
