"""The application and its routes."""

from aiohttp import web

from school import views


def make_app():
    app = web.Application()
    app.router.add_get("/", views.index)
    app.router.add_post("/students", views.add_student)
    app.router.add_get("/search", views.search)
    app.router.add_get("/echo", views.echo)
    app.router.add_get("/students/{id}", views.student)
    app.router.add_get("/avatar/{name}", views.avatar)
    app.router.add_get("/proxy", views.proxy)
    app.router.add_get("/weather", views.weather)
    app.router.add_post("/calc", views.calculate)
    app.router.add_post("/settings", views.settings)
    app.router.add_get("/back", views.back)
    app.router.add_get("/report", views.report)
    app.router.add_post("/ping", views.ping)
    return app


if __name__ == "__main__":
    web.run_app(make_app())
