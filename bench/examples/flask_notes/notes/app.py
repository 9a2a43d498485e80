from flask import Flask

from notes.views import bp

app = Flask(__name__)
app.register_blueprint(bp)
