"""Data access for students: one class of static methods over an aiopg connection."""


class Student:
    def __init__(self, id_, name):
        self.id = id_
        self.name = name

    @staticmethod
    async def create(conn, name):
        q = "INSERT INTO students (name) VALUES ('%(name)s')" % {"name": name}
        async with conn.cursor() as cur:
            await cur.execute(q)

    @staticmethod
    async def get(conn, id_):
        async with conn.cursor() as cur:
            await cur.execute("SELECT id, name FROM students WHERE id = %s", (id_,))
            row = await cur.fetchone()
        return Student(row[0], row[1])

    @staticmethod
    async def find(conn, name):
        q = "SELECT id, name FROM students WHERE name LIKE '%%" + name + "%%'"
        async with conn.cursor() as cur:
            await cur.execute(q)
            return await cur.fetchall()
