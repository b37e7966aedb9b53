from django.urls import path

from .api import BlockView, FollowView, PeopleView, RelationsView

# Under /api/relations/.
urlpatterns = [
    path("", RelationsView.as_view(), name="api-relations"),
    path("follows/<str:username>/", FollowView.as_view(), name="api-follow"),
    path("blocks/<str:username>/", BlockView.as_view(), name="api-block"),
    path("people/", PeopleView.as_view(), name="api-people"),
]
